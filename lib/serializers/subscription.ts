import type { SubscriptionRow, TestClockRow } from "../db/schema";
import type { SubscriptionJson } from "../schemas/subscriptions";

const msOrNull = (d: Date | null) => (d ? d.getTime() : null);

/**
 * A subscription (docs/reference.md section 21). `recovered`: what its dunning recovered, read from
 * the ledger (lib/domain/subscriptions/json.ts).
 */
export function serializeSubscription(row: SubscriptionRow, recovered: number): SubscriptionJson {
  const retrying = row.status === "past_due" && row.attemptCount > 0;
  return {
    object: "subscription",
    id: row.id,
    merchant_id: row.merchantId,
    customer: row.customerId,
    payment_method: row.paymentMethodId,
    status: row.status,
    items: row.items,
    amount: row.amount,
    currency: "usd",
    description: row.description,
    interval: row.interval,
    interval_count: row.intervalCount,
    current_period_start: row.currentPeriodStart.getTime(),
    current_period_end: row.currentPeriodEnd.getTime(),
    trial_end: msOrNull(row.trialEnd),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    latest_invoice: row.latestInvoiceId,
    attempt_count: row.attemptCount,
    last_decline_code: row.lastDeclineCode,
    next_payment_attempt: retrying ? msOrNull(row.nextActionAt) : null,
    recovered_amount: recovered,
    test_clock: row.testClockId,
    metadata: row.metadata,
    created_at: row.createdAt.getTime(),
    canceled_at: msOrNull(row.canceledAt),
    ended_at: msOrNull(row.endedAt),
  };
}

/** A sandbox test clock. */
export function serializeTestClock(row: TestClockRow) {
  return {
    object: "test_helpers.test_clock" as const,
    id: row.id,
    name: row.name,
    frozen_time: row.frozenTime.getTime(),
    status: row.status,
    created_at: row.createdAt.getTime(),
  };
}
