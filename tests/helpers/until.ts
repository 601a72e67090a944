/**
 * Polls `read` until `done` holds and returns that value; a read that throws counts as "not yet".
 * Past the deadline it throws, with the last value or error: tests wait on state, never on time.
 */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
  what = "the condition",
): Promise<T> {
  const start = Date.now();
  for (;;) {
    let last: string;
    try {
      const value = await read();
      if (done(value)) return value;
      last = JSON.stringify(value)?.slice(0, 500) ?? String(value);
    } catch (error) {
      last = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${last}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
