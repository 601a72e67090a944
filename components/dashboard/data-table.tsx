import type { ReactNode } from "react";

export type Column = { label: string; align?: "right" };

/**
 * A dashboard section holding one table: its heading, a sentence when there is nothing to list,
 * else the table in its own keyboard-scrollable region (tables scroll sideways on a phone, the page
 * does not).
 */
export function DataTable({
  id,
  title,
  testId,
  empty,
  columns,
  children,
}: {
  id: string;
  title: string;
  testId: string;
  /** Shown instead of the table when there are no rows. */
  empty: string | null;
  columns: Column[];
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      {empty !== null ? (
        <p>{empty}</p>
      ) : (
        <div className="relative overflow-x-auto" role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
          <table className="mt-2 w-full text-left text-sm" data-testid={testId}>
            <thead>
              <tr className="border-b border-line text-muted">
                {columns.map((c, i) => (
                  <th
                    key={c.label}
                    scope="col"
                    className={`py-1 font-medium ${i < columns.length - 1 ? "pr-3" : ""} ${c.align === "right" ? "text-right" : ""}`}
                  >
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}
