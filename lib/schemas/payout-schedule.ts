import { z } from "zod";

// A merchant's payout schedule (docs/reference.md section 20): when its payouts are made, how long
// they take to arrive, and the smallest one worth making.

export const payoutIntervals = ["daily", "weekly", "monthly", "manual"] as const;
export type PayoutInterval = (typeof payoutIntervals)[number];
export const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"] as const;
export type Weekday = (typeof weekdays)[number];

export type PayoutSchedule = {
  interval: PayoutInterval;
  weekly_anchor: Weekday | null;
  monthly_anchor: number | null;
  delay_days: number;
  minimum_amount: number;
};

export const defaultPayoutSchedule: PayoutSchedule = {
  interval: "daily",
  weekly_anchor: null,
  monthly_anchor: null,
  delay_days: 1,
  minimum_amount: 0,
};

export const payoutScheduleSchema = z
  .object({
    interval: z.enum(payoutIntervals).meta({
      description:
        "`daily` (default): a payout after each day's settlement; `weekly`: on `weekly_anchor`; `monthly`: on `monthly_anchor`; `manual`: only when asked for (`POST /v1/payouts`)",
    }),
    weekly_anchor: z.enum(weekdays).nullable().meta({ description: "`weekly`: the weekday payouts are made" }),
    monthly_anchor: z.number().int().nullable().meta({
      description: "`monthly`: the day of the month (1-31; the month's last business day when it is shorter)",
    }),
    delay_days: z
      .number()
      .int()
      .meta({ description: "Business days from a payout's sending to its arrival in the bank (1-7, default 1)" }),
    minimum_amount: z.number().int().meta({
      description: "Cents (default 0): a smaller available balance waits for the next payout day",
    }),
  })
  .meta({ id: "PayoutSchedule" });

/** A change of schedule (`PATCH /v1/merchants/{id}`, the home's settings): the fields given replace the merchant's. */
export const payoutScheduleChangeSchema = z
  .strictObject({
    interval: z.enum(payoutIntervals).optional(),
    weekly_anchor: z.enum(weekdays).nullable().optional(),
    monthly_anchor: z.number().int().min(1).max(31).nullable().optional(),
    delay_days: z.number().int().min(1).max(7).optional(),
    minimum_amount: z.number().int().min(0).max(100_000_000).optional(),
  })
  .meta({ id: "PayoutScheduleChange" });
export type PayoutScheduleChange = z.infer<typeof payoutScheduleChangeSchema>;
