import { and, or, type SQL } from "drizzle-orm";

/**
 * drizzle's `and`/`or` are typed as possibly `undefined` (for a list of nothing but `undefined`);
 * with a first condition given they never are. These say so once, instead of a `!` at each WHERE.
 */
export function allOf(first: SQL, ...rest: (SQL | undefined)[]): SQL {
  return and(first, ...rest) ?? first;
}

/** Any of the conditions (see allOf). */
export function anyOf(first: SQL, ...rest: (SQL | undefined)[]): SQL {
  return or(first, ...rest) ?? first;
}
