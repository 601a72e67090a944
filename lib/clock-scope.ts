import { AsyncLocalStorage } from "node:async_hooks";

import { readFrozenTimeFrom } from "./clock";

// A frozen time for one call and everything it awaits (lib/clock.ts): a test clock runs its
// objects' jobs inside `atTime(clockTime, ...)`; the rest of the process keeps the real time.

const scope = new AsyncLocalStorage<Date>();
readFrozenTimeFrom(() => scope.getStore());

/** Runs `fn` with `clock.now()` answering `at` (and no other caller affected, concurrent ones included). */
export function atTime<T>(at: Date, fn: () => T): T {
  return scope.run(new Date(at.getTime()), fn);
}
