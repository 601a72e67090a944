import { log } from "../../log";

// "Last used" and "last seen" times (an API key's, a dashboard session's): written off the request's
// path, at most once a minute per thing in this process; a failure to write one fails nothing.

const lastWritten = new Map<string, number>();
const WRITE_INTERVAL_MS = 60_000;

/** Runs `write` unless `key` was written less than a minute before `now` (ms) by this process. */
export function noteUse(key: string, now: number, write: () => Promise<unknown>) {
  const before = lastWritten.get(key);
  if (before !== undefined && now - before < WRITE_INTERVAL_MS) return;
  lastWritten.set(key, now);
  if (lastWritten.size > 10_000) lastWritten.clear();
  void write().catch((error: unknown) => log.warn({ err: error, key }, "last use not written"));
}
