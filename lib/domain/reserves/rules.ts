import type { ReserveRow } from "../../db/schema";
import type { ReserveLedger } from "../../ledger/reserve-movements";

// A reserve's rules (docs/reference.md section 20), pure: what a settlement holds, what is due back
// and when the next money comes back.

const DAY_MS = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

type Terms = Pick<ReserveRow, "type" | "percentBps" | "holdDays" | "amount" | "releaseOn" | "status">;

/**
 * What the reserve holds from a settlement that added `added` cents (its net less what was carried
 * in), when the merchant may draw `drawable` (after it): a rolling reserve its percent of a positive
 * net, rounded down; a fixed one what it still lacks of its amount. Never more than is drawable.
 */
export function holdFor(reserve: Terms, ledger: Pick<ReserveLedger, "held">, added: number, drawable: number) {
  if (reserve.status !== "active" || drawable <= 0) return 0;
  const wanted =
    reserve.type === "rolling"
      ? Math.floor((Math.max(0, added) * (reserve.percentBps ?? 0)) / 10_000)
      : Math.max(0, (reserve.amount ?? 0) - ledger.held);
  return Math.min(wanted, drawable);
}

/** The day a rolling reserve's hold made at `at` comes back: `hold_days` days later (YYYY-MM-DD). */
export const releaseDayOf = (at: Date, holdDays: number) => isoDay(new Date(at.getTime() + holdDays * DAY_MS));

/**
 * What is due back on `now`: a rolling reserve's holds whose day has come (what is left of them), a
 * fixed reserve's whole hold once its `release_on` has come. An active reserve only.
 */
export function dueRelease(reserve: Terms, ledger: ReserveLedger, now: Date) {
  if (reserve.status !== "active") return 0;
  const today = isoDay(now);
  if (reserve.type === "fixed") return reserve.releaseOn && reserve.releaseOn <= today ? ledger.held : 0;
  return ledger.holds
    .filter((h) => h.left > 0 && releaseDayOf(h.at, reserve.holdDays ?? 0) <= today)
    .reduce((sum, h) => sum + h.left, 0);
}

/** The next money the reserve gives back, and its day: the oldest hold not given back, or a fixed one's date. */
export function nextReleaseOf(reserve: Terms, ledger: ReserveLedger): { amount: number; date: string } | null {
  if (reserve.status !== "active" || ledger.held <= 0) return null;
  if (reserve.type === "fixed") return reserve.releaseOn ? { amount: ledger.held, date: reserve.releaseOn } : null;
  const oldest = ledger.holds.find((h) => h.left > 0);
  if (!oldest) return null;
  const date = releaseDayOf(oldest.at, reserve.holdDays ?? 0);
  const amount = ledger.holds
    .filter((h) => h.left > 0 && releaseDayOf(h.at, reserve.holdDays ?? 0) === date)
    .reduce((sum, h) => sum + h.left, 0);
  return { amount, date };
}
