import { sql } from "drizzle-orm";
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import { subscriptionIntervals, subscriptionStatuses } from "../../schemas/payment-values";
import { customers, paymentMethods, testClocks } from "./customers";
import { merchants } from "./merchants";

// Subscriptions and test clocks (docs/reference.md section 21), owned by lib/domain/subscriptions
// and lib/domain/test-clocks. A subscription bills its customer's saved method each period through
// a payment request of type INVOICE (`payment_requests.subscription_id`); `next_action_at` is when
// its next step falls due (a renewal, a retry, the end of its dunning, its cancellation).

export type SubscriptionItem = { name: string; unit_price: number; quantity: number };

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    paymentMethodId: text("payment_method_id")
      .notNull()
      .references(() => paymentMethods.id),
    testClockId: text("test_clock_id").references(() => testClocks.id),
    status: text("status", { enum: subscriptionStatuses }).notNull(),
    items: jsonb("items").$type<SubscriptionItem[]>().notNull(),
    /** Each period's amount in cents: the items' sum. */
    amount: integer("amount").notNull(),
    description: text("description"),
    interval: text("interval", { enum: subscriptionIntervals }).notNull(),
    intervalCount: integer("interval_count").notNull(),
    /** Where periods are counted from: the first paid period's start (the end of a trial). */
    billingCycleAnchor: timestamp("billing_cycle_anchor", { withTimezone: true, mode: "date" }).notNull(),
    /** Periods begun since the anchor (1 during the first). */
    periodIndex: integer("period_index").notNull(),
    currentPeriodStart: timestamp("current_period_start", { withTimezone: true, mode: "date" }).notNull(),
    currentPeriodEnd: timestamp("current_period_end", { withTimezone: true, mode: "date" }).notNull(),
    trialEnd: timestamp("trial_end", { withTimezone: true, mode: "date" }),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    /** The open or last period's payment request (INVOICE). */
    latestInvoiceId: text("latest_invoice_id"),
    /** Failed attempts to charge the latest invoice (0 once paid). */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When the latest invoice's first attempt failed: its retries are counted from here. */
    firstFailedAt: timestamp("first_failed_at", { withTimezone: true, mode: "date" }),
    lastDeclineCode: text("last_decline_code"),
    /** The method the last decline came from: a hard decline is not retried on the same method. */
    lastDeclinedMethodId: text("last_declined_method_id"),
    /** When the next step falls due (null: nothing will happen by itself). */
    nextActionAt: timestamp("next_action_at", { withTimezone: true, mode: "date" }),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    canceledAt: timestamp("canceled_at", { withTimezone: true, mode: "date" }),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("subscriptions_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("subscriptions_merchant_seq_idx").on(t.merchantId, t.seq),
    index("subscriptions_customer_idx").on(t.customerId),
    index("subscriptions_clock_due_idx").on(t.testClockId, t.nextActionAt),
    check("subscriptions_amount", sql`${t.amount} > 0`),
    check("subscriptions_interval_count", sql`${t.intervalCount} >= 1`),
  ],
);
export type SubscriptionRow = typeof subscriptions.$inferSelect;
