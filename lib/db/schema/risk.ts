import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { riskActions, riskAlertStatuses, riskRules } from "../../schemas/risk";

/**
 * An alert of the daily risk job (docs/reference.md section 20), owned by `lib/domain/risk`. One per
 * merchant, rule and period (`period`: the month, the day, or the charge that broke it), so a rule
 * still broken tomorrow does not raise it again.
 */
export const riskAlerts = pgTable(
  "risk_alerts",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    rule: text("rule", { enum: riskRules }).notNull(),
    period: text("period").notNull(),
    figures: jsonb("figures").$type<Record<string, number | string>>().notNull(),
    action: text("action", { enum: riskActions }).notNull(),
    status: text("status", { enum: riskAlertStatuses }).notNull().default("open"),
    reserveId: text("reserve_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    resolvedBy: text("resolved_by", { enum: ["isv", "operator", "system"] }),
  },
  (t) => [
    uniqueIndex("risk_alerts_once_key").on(t.merchantId, t.rule, t.period),
    index("risk_alerts_isv_idx").on(t.isvAccountId, t.createdAt),
  ],
);

export type RiskAlertRow = typeof riskAlerts.$inferSelect;
