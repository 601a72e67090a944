// A funnel drawn with HTML bars (no script): each step a labelled bar whose width is its share of
// the first step, with its count and percentage in words beside it, so that it reads without the
// picture too. An ordered list: a screen reader hears the steps in order.

export function FunnelChart({
  id,
  title,
  steps,
  percentOf,
  note,
}: {
  id: string;
  title: string;
  steps: { label: string; value: number }[];
  /** A step's value as a share of the first step's, in the reader's words. */
  percentOf: (value: number, first: number) => string;
  note?: string;
}) {
  const first = steps[0]?.value ?? 0;
  const widest = Math.max(1, ...steps.map((s) => s.value));
  return (
    <figure className="rounded-lg border border-line bg-card p-4" aria-labelledby={`${id}-title`} data-testid={id}>
      <figcaption id={`${id}-title`} className="font-semibold">
        {title}
      </figcaption>
      <ol className="mt-3 space-y-3">
        {steps.map((step, i) => (
          <li key={step.label} data-testid={`${id}-step`}>
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span>{step.label}</span>
              <span className="tabular-nums">
                <strong>{step.value}</strong>
                {i > 0 ? <span className="text-muted"> · {percentOf(step.value, first)}</span> : null}
              </span>
            </div>
            <div className="mt-1 h-3 rounded bg-line" aria-hidden="true">
              <div
                className="h-3 rounded bg-primary"
                style={{ width: `${step.value === 0 ? 0 : Math.max(2, (step.value / widest) * 100)}%` }}
              />
            </div>
          </li>
        ))}
      </ol>
      {note ? <p className="mt-3 text-sm text-muted">{note}</p> : null}
    </figure>
  );
}
