import { z } from "zod";

import { metadataSchema } from "./customers";
import { MAX_TOTAL } from "./money-fields";
import { itemSchema } from "./payment-requests";
import { subscriptionIntervals, subscriptionStatuses } from "./payment-values";

// Subscriptions and test clocks (docs/reference.md section 21).

const id = (example: string) => z.string().min(1).max(64).meta({ example });
const ms = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `${description} (milliseconds since the epoch)` });

const itemsSchema = z
  .array(itemSchema)
  .min(1, "must list at least one item")
  .max(20, "must list at most 20 items")
  .refine(
    (items) => items.reduce((sum, i) => sum + i.unit_price * i.quantity, 0) > 0,
    "the items must add up to more than 0",
  )
  .refine(
    (items) => items.reduce((sum, i) => sum + i.unit_price * i.quantity, 0) <= MAX_TOTAL,
    `the items must add up to at most ${MAX_TOTAL} cents`,
  );

/** The most intervals one period may span: a period is at most a year. */
export const MAX_INTERVAL_COUNT = { week: 52, month: 12, year: 1 } as const;

export const createSubscriptionSchema = z
  .strictObject({
    merchant_id: id("mer_4kZ2qV9sT1pLmN8xRw3YbC").optional().meta({ description: "Required with the ISV's key." }),
    customer: id("cus_5tR8mQ2zX7kP1vL9wN3yBd"),
    payment_method: id("pm_8hJ3kL5nP7qR9sT1vW2xYz").meta({ description: "One of the customer's saved methods" }),
    items: itemsSchema,
    description: z.string().trim().min(1).max(500).optional(),
    interval: z.enum(subscriptionIntervals),
    interval_count: z.number().int().min(1).optional().meta({
      description: "Intervals per period (default 1): at most 52 weeks, 12 months or 1 year",
    }),
    trial_days: z.number().int().min(1).max(730).optional().meta({
      description: "Days before the first payment; none: the first period is charged now",
    }),
    cancel_at_period_end: z.boolean().optional(),
    metadata: metadataSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.interval_count ?? 1) > MAX_INTERVAL_COUNT[input.interval])
      ctx.addIssue({
        code: "custom",
        path: ["interval_count"],
        message: `must be at most ${MAX_INTERVAL_COUNT[input.interval]} for a ${input.interval}ly subscription (a period is at most a year)`,
      });
  })
  .meta({ id: "CreateSubscriptionRequest" });
export type CreateSubscriptionInput = z.infer<typeof createSubscriptionSchema>;

export const updateSubscriptionSchema = z
  .strictObject({
    payment_method: id("pm_8hJ3kL5nP7qR9sT1vW2xYz").optional().meta({
      description: "Another of the customer's saved methods; a past_due subscription is tried on it at once",
    }),
    cancel_at_period_end: z.boolean().optional(),
    metadata: metadataSchema.optional().meta({ description: "Merges; a key sent with an empty string is removed." }),
  })
  .meta({ id: "UpdateSubscriptionRequest" });
export type UpdateSubscriptionInput = z.infer<typeof updateSubscriptionSchema>;

export const subscriptionSchema = z
  .object({
    object: z.literal("subscription"),
    id: z.string(),
    merchant_id: z.string(),
    customer: z.string(),
    payment_method: z.string(),
    status: z.enum(subscriptionStatuses),
    items: z.array(itemSchema),
    amount: z.number().int().meta({ description: "Each period's amount in cents: the items' sum" }),
    currency: z.literal("usd"),
    description: z.string().nullable(),
    interval: z.enum(subscriptionIntervals),
    interval_count: z.number().int(),
    current_period_start: ms("The current period's start"),
    current_period_end: ms("The current period's end: the next renewal"),
    trial_end: ms("The trial's end").nullable(),
    cancel_at_period_end: z.boolean(),
    latest_invoice: z.string().nullable().meta({
      description: "The payment request (`pr_...`, type INVOICE) of the current period; null during a trial",
    }),
    attempt_count: z.number().int().meta({ description: "Failed attempts to charge the latest invoice (0 once paid)" }),
    last_decline_code: z.string().nullable(),
    next_payment_attempt: ms("When the latest invoice is tried again").nullable(),
    recovered_amount: z.number().int().meta({
      description:
        "Cents paid after a failed attempt, by a retry or by the customer from the e-mailed link, less what was refunded of them or returned by the bank (read from the ledger)",
    }),
    test_clock: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_at: ms("Created"),
    canceled_at: ms("Canceled").nullable(),
    ended_at: ms("Ended").nullable(),
  })
  .meta({ id: "Subscription" });
export type SubscriptionJson = z.infer<typeof subscriptionSchema>;

export const subscriptionListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  customer: z.string().max(64).optional(),
  status: z.enum(subscriptionStatuses).optional(),
});

export const createTestClockSchema = z
  .strictObject({
    frozen_time: z.number().int().meta({
      description: "Milliseconds since the epoch: the clock's time (from an hour ago to two years ahead)",
    }),
    name: z.string().trim().min(1).max(200).optional(),
  })
  .meta({ id: "CreateTestClockRequest" });

export const advanceTestClockSchema = z
  .strictObject({
    frozen_time: z.number().int().meta({
      description: "Milliseconds since the epoch: later than the clock's time, by at most two years",
    }),
  })
  .meta({ id: "AdvanceTestClockRequest" });

export const testClockSchema = z
  .object({
    object: z.literal("test_helpers.test_clock"),
    id: z.string(),
    name: z.string().nullable(),
    frozen_time: ms("The clock's time"),
    status: z.enum(["ready", "advancing", "internal_failure"]).meta({
      description: "`advancing` while its renewals, retries and e-mails run up to `frozen_time`; then `ready`",
    }),
    created_at: ms("Created"),
  })
  .meta({ id: "TestClock" });
