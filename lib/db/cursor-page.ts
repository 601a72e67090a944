import { and, asc, desc, gt, lt, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

import { AppError } from "../errors";
import type { ListQuery } from "../schemas/list";

/**
 * One page of a list, newest first, with the contract's cursors (docs/reference.md section 3): the
 * cursor is an object id, turned into its position on an increasing column (`seq`) by `positionOf`
 * (which must apply the caller's scope: another account's id is "no such object").
 */
export async function cursorPage<T>(
  query: ListQuery,
  options: {
    noun: string;
    seq: AnyPgColumn;
    filters: SQL[];
    positionOf: (id: string) => Promise<number | null>;
    select: (where: SQL | undefined, orderBy: SQL, limit: number) => Promise<T[]>;
  },
): Promise<{ rows: T[]; hasMore: boolean }> {
  if (query.starting_after && query.ending_before) {
    throw new AppError("parameter_invalid", "Send starting_after or ending_before, not both", {
      param: "ending_before",
    });
  }
  const filters = [...options.filters];
  const cursorId = query.starting_after ?? query.ending_before;
  if (cursorId) {
    const position = await options.positionOf(cursorId);
    if (position === null) {
      throw new AppError("parameter_invalid", `No such ${options.noun}: '${cursorId}'`, {
        param: query.starting_after ? "starting_after" : "ending_before",
      });
    }
    filters.push(query.starting_after ? lt(options.seq, position) : gt(options.seq, position));
  }
  const rows = await options.select(
    and(...filters),
    query.ending_before ? asc(options.seq) : desc(options.seq),
    query.limit + 1,
  );
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.ending_before) page.reverse();
  return { rows: page, hasMore };
}

/**
 * A page's list at the cursors of its address (`after`, `before`), or its first page when the cursor
 * is not one of the list's (an edited or stale address): for the pages, where a link must not end in
 * an error. `paged` says whether the cursor was used.
 */
export async function pageAtOrFirst<T>(
  limit: number,
  cursor: { after?: string; before?: string },
  list: (query: ListQuery) => Promise<T>,
): Promise<{ value: T; paged: boolean }> {
  const query: ListQuery = cursor.before
    ? { limit, ending_before: cursor.before }
    : { limit, starting_after: cursor.after };
  if (!query.starting_after && !query.ending_before) return { value: await list({ limit }), paged: false };
  try {
    return { value: await list(query), paged: true };
  } catch (error) {
    if (error instanceof AppError && error.code === "parameter_invalid")
      return { value: await list({ limit }), paged: false };
    throw error;
  }
}
