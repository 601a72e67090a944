import { z } from "zod";

// Risk after approval (docs/reference.md section 20): the daily job's rules, what each may do, and
// the alerts it raises.

export const riskRules = [
  "volume_over_declared",
  "large_ticket",
  "refund_rate",
  "dispute_rate",
  "decline_spike",
] as const;
export type RiskRule = (typeof riskRules)[number];
/**
 * What an alert of a rule does, the ISV's choice per rule: `notify` (the event, the dashboard and the
 * merchant's banner); `pause_payouts` (until the alert is resolved, or until a daily run finds the
 * rule no longer broken); `reserve` (a rolling 10 % reserve for 90 days); `review` (payouts paused
 * until a person resolves the alert).
 */
export const riskActions = ["notify", "pause_payouts", "reserve", "review"] as const;
export type RiskAction = (typeof riskActions)[number];
export const riskAlertStatuses = ["open", "resolved"] as const;

export const defaultRiskActions: Record<RiskRule, RiskAction> = {
  volume_over_declared: "notify",
  large_ticket: "notify",
  refund_rate: "notify",
  dispute_rate: "notify",
  decline_spike: "notify",
};

export const riskActionsSchema = z.strictObject(
  Object.fromEntries(riskRules.map((rule) => [rule, z.enum(riskActions)])) as Record<
    RiskRule,
    z.ZodEnum<{ [K in RiskAction]: K }>
  >,
);
export const riskActionsPatchSchema = riskActionsSchema.partial();

export const riskAlertSchema = z
  .object({
    object: z.literal("risk_alert"),
    id: z.string(),
    merchant_id: z.string(),
    rule: z.enum(riskRules).meta({
      description:
        "`volume_over_declared`: the month's card volume over 1.5 × the declared monthly card volume, pro rata; `large_ticket`: a charge over twice the declared highest amount; `refund_rate`: refunds over 10 % of the last 30 days' volume; `dispute_rate`: disputes over 0.75 % of the last 30 days' card charges; `decline_spike`: at least 10 declines in a day, half its attempts or more (card testing)",
    }),
    figures: z
      .record(z.string(), z.union([z.number(), z.string()]))
      .meta({ description: "What the rule measured and its limit (cents, counts, basis points, the charge)" }),
    action: z.enum(riskActions).meta({ description: "What was done (the ISV's `settings.risk_actions` for the rule)" }),
    status: z.enum(riskAlertStatuses),
    reserve_id: z.string().nullable().meta({ description: "`reserve`: the reserve it put on" }),
    created_at: z.number().int(),
    resolved_at: z.number().int().nullable(),
    resolved_by: z
      .enum(["isv", "operator", "system"])
      .nullable()
      .meta({ description: "`system`: a daily run found the rule no longer broken (`pause_payouts` only)" }),
  })
  .meta({ id: "RiskAlert" });

export const riskAlertListQuerySchema = z.object({
  merchant_id: z.string().max(64).optional(),
  status: z.enum(riskAlertStatuses).optional(),
});
