import { z } from "zod";

// What the platform charges an ISV (docs/reference.md section 19), set by the operator and shown
// in GET /v1/account: every figure integer cents or basis points.

const bps = z.number().int("must be whole basis points").min(0).max(10_000);
const cents = z.number().int("must be whole cents").min(0).max(1_000_000);

export const costProfileSchema = z
  .strictObject({
    card: z.strictObject({
      interchange: z
        .literal("processor")
        .meta({ description: "Interchange at cost, from the processor's table (by card class and presence)" }),
      network_bps: bps.meta({ description: "The card networks' assessment, in basis points of the amount" }),
      processor_bps: bps.meta({ description: "The processor's fee, in basis points of the amount" }),
      processor_per_item: cents.meta({ description: "The processor's fee per card charge, in cents" }),
    }),
    ach: z.strictObject({
      per_item: cents.meta({ description: "Per ACH debit, in cents" }),
      return_cost: cents.meta({ description: "Per ACH return, in cents" }),
    }),
    dispute_cost: cents.meta({ description: "Per dispute, in cents" }),
    payout_cost: cents.meta({ description: "Per payout, in cents" }),
    instant_payout_bps: bps.meta({ description: "Per instant payout, in basis points of its amount" }),
    revenue_share_percent: z
      .number()
      .int("must be a whole percent")
      .min(0)
      .max(100)
      .meta({ description: "The ISV's share of the margin (merchant fees less costs), in percent" }),
  })
  .meta({ id: "CostProfile" });
export type CostProfile = z.infer<typeof costProfileSchema>;

/** The contract's defaults (section 19): what an ISV costs until the operator sets its own. */
export const defaultCostProfile: CostProfile = {
  card: { interchange: "processor", network_bps: 14, processor_bps: 10, processor_per_item: 5 },
  ach: { per_item: 25, return_cost: 200 },
  dispute_cost: 1_500,
  payout_cost: 0,
  instant_payout_bps: 100,
  revenue_share_percent: 80,
};

export const costLineSchema = z
  .object({
    type: z.enum(["interchange", "network", "processor", "ach", "return", "dispute"]),
    rate_bps: z.number().int(),
    fixed: z.number().int().meta({ description: "Cents" }),
    amount: z.number().int().meta({ description: "Cents: the line's share of the object's costs" }),
    description: z.string(),
  })
  .meta({ id: "CostLine" });
export type CostLine = z.infer<typeof costLineSchema>;
