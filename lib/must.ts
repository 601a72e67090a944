/**
 * A value the code's own logic guarantees (a row it just read or wrote, an entry of a map it built
 * from the same rows, a field a row of that type always has): its absence is a bug, thrown as one (a
 * 500 with the request id) instead of a `!` that would carry `undefined` on. `what` names it in the error.
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Expected ${what}; there was none`);
  return value;
}
