import { typedDollarsToCents } from "../../money";
import { chargeStatuses, paymentTypes } from "../../schemas/payment-values";

// The payments lists of the merchant's home and of the ISV's dashboard (docs/reference.md sections
// 15 and 23): their filters as the page's query string
// holds them, read into the charges list's query. A value that cannot be used is reported by field
// (the page says why beside it) and filters nothing; the list is never a 500.

export type PaymentsQuery = Partial<
  Record<"status" | "type" | "from" | "to" | "amount" | "last4" | "after" | "before", string>
>;
export type FilterProblem = "date" | "range" | "amount" | "last4";

export const PAYMENTS_PAGE_SIZE = 25;

const dayStart = (day: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const at = Date.UTC(y, m - 1, d);
  // 2026-02-30 is not a day.
  return new Date(at).toISOString().slice(0, 10) === day ? at : null;
};

export function readPaymentFilters(raw: PaymentsQuery) {
  const problems: Partial<Record<"from" | "to" | "amount" | "last4", FilterProblem>> = {};
  const status = (chargeStatuses as readonly string[]).includes(raw.status ?? "")
    ? (raw.status as (typeof chargeStatuses)[number])
    : undefined;
  const type = (paymentTypes as readonly string[]).includes(raw.type ?? "")
    ? (raw.type as (typeof paymentTypes)[number])
    : undefined;
  let from = raw.from ? dayStart(raw.from) : null;
  let to = raw.to ? dayStart(raw.to) : null;
  if (raw.from && from === null) problems.from = "date";
  if (raw.to && to === null) problems.to = "date";
  if (from !== null && to !== null && to < from) {
    problems.to = "range";
    to = null;
    from = null;
  }
  let amount: number | undefined;
  if (raw.amount?.trim()) {
    const cents = typedDollarsToCents(raw.amount);
    if (cents === null || cents < 1) problems.amount = "amount";
    else amount = cents;
  }
  const last4 = raw.last4?.trim() ? raw.last4.trim() : undefined;
  if (last4 !== undefined && !/^\d{4}$/.test(last4)) problems.last4 = "last4";
  const cursor = (id: string | undefined) => (id && /^ch_[0-9A-Za-z]{1,61}$/.test(id) ? id : undefined);
  return {
    query: {
      limit: PAYMENTS_PAGE_SIZE,
      starting_after: raw.before ? undefined : cursor(raw.after),
      ending_before: cursor(raw.before),
      status,
      payment_type: type,
      "created[gte]": from ?? undefined,
      "created[lte]": to === null ? undefined : to + 86_399_999,
      amount,
      last4: problems.last4 ? undefined : last4,
    },
    problems,
    /** Whether any filter narrows the list (the empty state says "nothing matches" rather than "no payments yet"). */
    filtered: Boolean(
      status || type || from !== null || to !== null || amount !== undefined || (last4 && !problems.last4),
    ),
  };
}
