/**
 * The one row an INSERT or UPDATE ... RETURNING wrote. The callers write a row they just locked,
 * checked or created, so none coming back is a bug, never an answer: it throws (a 500 with the
 * request id), instead of a `!` that would carry `undefined` on into the change.
 */
export function one<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("Expected the write to return one row; it returned none");
  return row;
}
