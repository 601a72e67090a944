import { z } from "zod";

// Reserves (docs/reference.md section 20): part of a merchant's money held back from its payouts,
// with a reason in words the merchant reads.

export const reserveTypes = ["rolling", "fixed"] as const;
export type ReserveType = (typeof reserveTypes)[number];
export const reserveStatuses = ["active", "released"] as const;
export type ReserveStatus = (typeof reserveStatuses)[number];
/** Who made it: the ISV (API or dashboard), the platform's operator (CLI), or a risk rule's action. */
export const reserveCreators = ["isv", "operator", "risk"] as const;
export type ReserveCreator = (typeof reserveCreators)[number];

export const reserveSchema = z
  .object({
    object: z.literal("reserve"),
    id: z.string(),
    merchant_id: z.string(),
    type: z.enum(reserveTypes).meta({
      description:
        "`rolling`: `percent` of each settlement's net held for `hold_days` days, each day's hold coming back on its own date; `fixed`: `amount` held until released (or until `release_on`)",
    }),
    percent: z
      .number()
      .nullable()
      .meta({ description: "`rolling`: the percent of each settlement's net held (0.01-100; two decimals at most)" }),
    hold_days: z.number().int().nullable().meta({ description: "`rolling`: days each hold is kept (1-365)" }),
    amount: z.number().int().nullable().meta({
      description: "`fixed`: the cents to hold; held from what is available now, the rest from the next settlements",
    }),
    release_on: z
      .string()
      .nullable()
      .meta({ description: "`fixed`: YYYY-MM-DD on which it is released by itself (null: until released)" }),
    reason: z.string().meta({ description: "Why, in words the merchant reads (shown in its home)" }),
    status: z.enum(reserveStatuses),
    held: z.number().int().meta({ description: "Cents it holds now (the merchant's `reserved` is the sum)" }),
    next_release: z
      .object({ amount: z.number().int(), date: z.string() })
      .nullable()
      .meta({ description: "The next money it gives back, and when (YYYY-MM-DD); null: none due" }),
    created_by: z.enum(reserveCreators),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
    released_at: z.number().int().nullable(),
  })
  .meta({ id: "Reserve" });

/** Two decimals at most, as basis points: 10 → 1000, 2.5 → 250. */
export const percentToBps = (percent: number) => Math.round(percent * 100);

export const createReserveSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("rolling"),
      percent: z
        .number()
        .min(0.01)
        .max(100)
        .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, "two decimals at most"),
      hold_days: z.number().int().min(1).max(365),
      reason: z.string().trim().min(3).max(300),
    }),
    z.strictObject({
      type: z.literal("fixed"),
      amount: z.number().int().min(1).max(100_000_000),
      release_on: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "a date, YYYY-MM-DD")
        .optional(),
      reason: z.string().trim().min(3).max(300),
    }),
  ])
  .meta({ id: "CreateReserveRequest" });
export type CreateReserveInput = z.infer<typeof createReserveSchema>;
