/**
 * The one row a query must find, or that an INSERT or UPDATE ... RETURNING wrote: the callers read
 * or write a row they just locked, checked or created, so none coming back is a bug, never an answer.
 * It throws (a 500 with the request id) instead of a `!` that would carry `undefined` on into the change.
 */
export function one<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("Expected one row; none came back");
  return row;
}
