import type { SubscriptionInterval } from "../../schemas/payment-values";

// A subscription's calendar and its dunning (docs/reference.md section 21), as pure rules.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `anchor` moved by `n` intervals, in UTC: a week is 7 days; a month keeps the anchor's day of the
 * month, or the month's last day when it has fewer (31 January, then 28 February, then 31 March);
 * a year is 12 months (29 February, then 28 February).
 */
export function addIntervals(anchor: Date, interval: SubscriptionInterval, n: number): Date {
  if (interval === "week") return new Date(anchor.getTime() + n * 7 * DAY_MS);
  const months = interval === "year" ? 12 * n : n;
  const target = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(anchor.getUTCDate(), lastDay));
  target.setUTCHours(anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds());
  return target;
}

/** The `index`-th period (1 is the first) of a subscription billed every `count` `interval`s from `anchor`. */
export function periodOf(anchor: Date, interval: SubscriptionInterval, count: number, index: number) {
  return {
    start: addIntervals(anchor, interval, count * (index - 1)),
    end: addIntervals(anchor, interval, count * index),
  };
}

/** Days after the first failed attempt on which a period's payment is tried again. */
export const RETRY_DAYS = [1, 3, 5, 7] as const;

/**
 * When the next attempt falls due after `failures` failed attempts on one invoice (the first failed
 * at `firstFailedAt`); null once the last retry (day 7) has failed: the dunning ends.
 */
export function nextRetryAt(firstFailedAt: Date, failures: number): Date | null {
  const day = RETRY_DAYS[failures - 1];
  return day === undefined ? null : new Date(firstFailedAt.getTime() + day * DAY_MS);
}

/**
 * A decline that another try of the same card cannot turn into a payment: the card is lost, stolen,
 * expired or closed, or of a kind this payment does not take. These are never retried (a network
 * counts retries of them against the merchant); the customer is asked for another card instead.
 * Every other decline (insufficient funds, the issuer not answering, a generic decline) is soft.
 */
const HARD_DECLINES = new Set([
  "lost_card",
  "stolen_card",
  "expired_card",
  "incorrect_cvc",
  "debit_not_allowed",
  "payment_method_expired",
  "payment_method_unusable",
]);
export const isHardDecline = (reason: string | null | undefined) => HARD_DECLINES.has(reason ?? "");

/** A test clock moves at most two years at a time, and only forward. */
export const MAX_CLOCK_ADVANCE_MS = 2 * 366 * DAY_MS;
