// A grouped bar chart drawn on the server as SVG (no script, no library): one group per category
// (a month), one bar per series, a zero line when values go below it. Accessible: the SVG is an image
// named by its description, and the same figures are a table a screen reader or a keyboard user can
// open. Sized by its viewBox, so it fits a phone's width; the legend is HTML and wraps.

export type BarSeries = { name: string; color: string; values: number[] };

const W = 480;
const H = 220;
const LEFT = 66;
const RIGHT = 6;
const TOP = 10;
const BOTTOM = 30;

/**
 * Round steps for the axis (1, 2, 5 × 10^n) giving about four ticks over the range: the first at or
 * below `low`, the last at or above `high`, so no bar runs past the axis.
 */
export function ticksOf(low: number, high: number): number[] {
  const span = high - low || 1;
  const raw = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let v = Math.floor(low / step) * step; ticks.at(-1) === undefined || (ticks.at(-1) as number) < high; v += step)
    ticks.push(Math.round(v));
  return ticks;
}

export function BarChart({
  id,
  title,
  description,
  categories,
  series,
  format,
  formatAxis,
  tableLabel,
  categoryLabel,
  maxLabels = 12,
}: {
  id: string;
  title: string;
  /** What the chart shows, in words: the image's accessible name. */
  description: string;
  categories: string[];
  series: BarSeries[];
  /** A value in the reader's words (money). */
  format: (value: number) => string;
  /** A tick's words, shorter. */
  formatAxis: (value: number) => string;
  /** "Show as a table" */
  tableLabel: string;
  categoryLabel: string;
  /** How many categories at most are named under the axis. */
  maxLabels?: number;
}) {
  const values = series.flatMap((s) => s.values);
  const ticks = ticksOf(Math.min(0, ...values), Math.max(0, ...values, 1));
  const low = ticks[0] ?? 0;
  const high = ticks.at(-1) ?? 1;
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const y = (v: number) => TOP + ((high - v) / (high - low || 1)) * plotH;
  const group = plotW / Math.max(categories.length, 1);
  const bar = (group * 0.78) / Math.max(series.length, 1);
  // At most `maxLabels` labels under the axis (30 days with 7: every fifth, counted back from the
  // last, so that the latest category is always named); every category is still in the table.
  const labelEvery = Math.max(1, Math.ceil(categories.length / maxLabels));
  const labelled = (i: number) => (categories.length - 1 - i) % labelEvery === 0;
  return (
    <figure aria-labelledby={`${id}-title`} className="rounded-lg border border-line bg-card p-3" data-testid={id}>
      <figcaption id={`${id}-title`} className="font-semibold">
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={description} className="mt-2 block h-auto w-full">
        {ticks.map((t) => (
          <g key={t}>
            <line x1={LEFT} x2={W - RIGHT} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#475569" : "#e2e8f0"} />
            <text x={LEFT - 6} y={y(t) + 4} textAnchor="end" fontSize="15" fill="#475569">
              {formatAxis(t)}
            </text>
          </g>
        ))}
        {categories.map((c, i) => (
          <g key={c}>
            {series.map((s, j) => {
              const v = s.values[i] ?? 0;
              const x = LEFT + i * group + group * 0.11 + j * bar;
              return (
                <rect
                  key={s.name}
                  x={x}
                  y={Math.min(y(v), y(0))}
                  width={Math.max(bar - 1, 1)}
                  height={Math.max(Math.abs(y(v) - y(0)), v === 0 ? 0 : 1)}
                  fill={s.color}
                >
                  <title>{`${c}, ${s.name}: ${format(v)}`}</title>
                </rect>
              );
            })}
            {labelled(i) ? (
              // The last one ends at the plot's edge, so that a long label is not cut by it.
              <text
                x={i === categories.length - 1 && labelEvery > 1 ? W - RIGHT : LEFT + i * group + group / 2}
                y={H - 9}
                textAnchor={i === categories.length - 1 && labelEvery > 1 ? "end" : "middle"}
                fontSize="15"
                fill="#334155"
              >
                {c}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-hidden="true">
        {series.map((s) => (
          <li key={s.name} className="flex items-center gap-1">
            <span className="inline-block h-3 w-3 rounded-sm" style={{ background: s.color }} />
            {s.name}
          </li>
        ))}
      </ul>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer underline">{tableLabel}</summary>
        <div className="overflow-x-auto">
          <table className="mt-2 w-full text-right tabular-nums">
            <thead>
              <tr>
                <th scope="col" className="pr-3 text-left">
                  {categoryLabel}
                </th>
                {series.map((s) => (
                  <th key={s.name} scope="col" className="pr-3">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {categories.map((c, i) => (
                <tr key={c} className="border-t border-line">
                  <th scope="row" className="pr-3 text-left font-normal">
                    {c}
                  </th>
                  {series.map((s) => (
                    <td key={s.name} className="pr-3">
                      {format(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
