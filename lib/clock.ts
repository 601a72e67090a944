// The one clock of the domain, the ledger and the jobs (docs/decisions.md, "One clock"): every "now"
// in lib/domain, lib/ledger, lib/jobs and lib/payouts is read here (lint refuses `new Date()` and
// `Date.now()` there). It is the real clock, unless the caller runs inside a frozen time
// (lib/clock-scope.ts `atTime`): a test clock's objects are moved by running their jobs at the
// clock's time, and everything they read as "now" is that time. This file imports nothing of
// Node's, so a rule shared with the browser may read it.

type FrozenTime = () => Date | undefined;

let frozenTime: FrozenTime = () => undefined;

export const clock = {
  /** Now: the frozen time of the scope the caller runs in, else the real time. A new Date each call. */
  now(): Date {
    const frozen = frozenTime();
    return frozen ? new Date(frozen.getTime()) : new Date();
  },
  /** Now in milliseconds since the epoch. */
  ms(): number {
    return clock.now().getTime();
  },
};

/** Server only (lib/clock-scope.ts): where the frozen time of the running scope is read. */
export function readFrozenTimeFrom(reader: FrozenTime) {
  frozenTime = reader;
}
