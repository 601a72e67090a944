import { z } from "zod";

// Residuals (docs/reference.md section 19): what the ISV earned in a month, one per ISV and month,
// with one line per merchant; integer cents.

export const residualStatuses = ["pending", "paid", "carried"] as const;
export type ResidualStatus = (typeof residualStatuses)[number];

/** A calendar month, YYYY-MM. */
export const periodSchema = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month written YYYY-MM")
  .meta({ example: "2026-10" });

const cents = (description: string) =>
  z
    .number()
    .int()
    .meta({ description: `Cents: ${description}` });

/** The figures a residual and each of its lines share. */
const figures = {
  volume: cents("what the merchants' customers paid in the month (the charges captured)"),
  count: z.number().int().meta({ description: "The charges captured in the month" }),
  merchant_fees: cents(
    "what the merchants paid in fees: the charges' processing fees, the disputes' fees and the month-end fees taken in the month",
  ),
  costs: cents("what they cost the platform: the charges' costs, the disputes' and the ACH returns' in the month"),
  margin: cents("merchant_fees - costs (negative when fees were below cost)"),
  share: cents(
    "the ISV's share of the margin: margin × revenue_share_percent ÷ 100, rounded half away from zero, per merchant",
  ),
  platform_fees: cents("the ISV's platform fees of the month, less what refunds gave back of them"),
};

export const residualSchema = z
  .object({
    object: z.literal("residual"),
    id: z.string(),
    period: periodSchema,
    ...figures,
    revenue_share_percent: z
      .number()
      .int()
      .meta({ description: "The ISV's share of the margin when the residual was made (its cost profile)" }),
    adjustments: cents("changes an operator made to this residual (none yet: 0)"),
    carried_in: cents("the previous residual's amount when it was negative (<= 0), carried into this one"),
    amount: cents(
      "share + platform_fees + adjustments + carried_in: what the ISV is paid (> 0) or carries into the next month (< 0)",
    ),
    status: z.enum(residualStatuses).meta({
      description:
        "`pending` (a positive amount, its payout to the ISV's bank account not yet paid), `paid` (its payout paid, or nothing to pay), `carried` (negative: carried into the next month)",
    }),
    payout_id: z
      .string()
      .nullable()
      .meta({ description: "The payout to the ISV's bank account (`recipient: account`)" }),
    line_count: z.number().int().meta({ description: "Its lines: one per merchant with activity in the month" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Residual" });
export type ResidualJson = z.infer<typeof residualSchema>;

export const residualLineSchema = z
  .object({
    object: z.literal("residual_line"),
    residual_id: z.string(),
    merchant_id: z.string(),
    ...figures,
    amount: cents("share + platform_fees: the merchant's part of the residual"),
  })
  .meta({ id: "ResidualLine" });
export type ResidualLineJson = z.infer<typeof residualLineSchema>;

export const generateResidualSchema = z
  .strictObject({ period: periodSchema.meta({ description: "A month that has begun (the current one included)" }) })
  .meta({ id: "GenerateResidualRequest" });

export const residualDownloadQuery = z.object({
  format: z.enum(["pdf", "csv"]).default("pdf").meta({ description: "Default pdf" }),
});
