import type { ReactNode } from "react";

import { ScrollRegion } from "@/components/ui/scroll-region";

export type Column = {
  label: string;
  align?: "right";
  /** Left out on a phone (its cells carry `hidden sm:table-cell` too): a detail the row can do without there. */
  wide?: boolean;
};

/**
 * A dashboard section holding one table: its heading, a sentence when there is nothing to list,
 * else the table in its own keyboard-scrollable region (a table wider than a phone scrolls sideways
 * and says so; the page does not).
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
        <ScrollRegion labelledBy={`${id}-title`}>
          <table className="mt-2 w-full text-left text-sm" data-testid={testId}>
            <thead>
              <tr className="border-b border-line text-muted">
                {columns.map((c, i) => (
                  <th
                    key={c.label}
                    scope="col"
                    className={`py-1 font-medium ${i < columns.length - 1 ? "pr-3" : ""} ${c.align === "right" ? "text-right" : ""} ${c.wide ? "hidden sm:table-cell" : ""}`}
                  >
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
