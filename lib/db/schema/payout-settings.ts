import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import { payoutIntervals, weekdays } from "../../schemas/payout-schedule";

/**
 * How an owner's payouts go (docs/reference.md section 16), owned by `lib/domain/payouts`: one row per
 * merchant or ISV account (migration 0050 made one for each that existed; an owner without a row has
 * the defaults). The payout schedule joins them here (section 20).
 */
export const payoutSettings = pgTable(
  "payout_settings",
  {
    /** The merchant (`mer_`) or the ISV account (`acct_`) whose payouts these are. */
    ownerId: text("owner_id").primaryKey(),
    recipient: text("recipient", { enum: ["merchant", "account"] }).notNull(),
    /** False: each new payout waits (`held`, `automatic_payouts_off`) until they are turned on again. */
    automatic: boolean("automatic").notNull().default(true),
    /** Someone reported a change as not theirs: payouts wait for an operator. */
    frozenAt: timestamp("frozen_at", { withTimezone: true, mode: "date" }),
    /**
     * A merchant's bank account entered after approval: no payout reaches it until its check has
     * verified it and this cooling-off time has passed (the ISV's `settings.new_bank_account_hold_days`
     * business days after the change). Null: the account underwriting approved.
     */
    bankAccountHoldUntil: timestamp("bank_account_hold_until", { withTimezone: true, mode: "date" }),
    /** A risk alert paused the merchant's payouts (`pause_payouts`, `review`) until it is resolved. */
    riskPausedAt: timestamp("risk_paused_at", { withTimezone: true, mode: "date" }),
    /** When its payouts are made (docs/reference.md section 20): every day, on a weekday, on a day of the month, or only when asked. */
    interval: text("interval", { enum: payoutIntervals }).notNull().default("daily"),
    /** `weekly`: the weekday its payouts are made. */
    weeklyAnchor: text("weekly_anchor", { enum: weekdays }),
    /** `monthly`: the day of the month (1-31; the month's last business day when it is shorter). */
    monthlyAnchor: integer("monthly_anchor"),
    /** Business days from a payout's sending to its arrival (1-7). */
    delayDays: integer("delay_days").notNull().default(1),
    /** Cents: a smaller drawable balance waits for the next payout day. */
    minimumAmount: integer("minimum_amount").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    check("payout_settings_recipient", sql`${t.recipient} in ('merchant', 'account')`),
    // An ISV's own payouts are never automatic-off or held for a bank account change (their hold is `frozen_at`).
    check(
      "payout_settings_account_fields",
      sql`${t.recipient} = 'merchant' or (${t.automatic} and ${t.bankAccountHoldUntil} is null)`,
    ),
    check(
      "payout_settings_schedule",
      sql`(${t.interval} = 'weekly') = (${t.weeklyAnchor} is not null)
        and (${t.interval} = 'monthly') = (${t.monthlyAnchor} is not null)
        and coalesce(${t.monthlyAnchor} between 1 and 31, true)
        and ${t.delayDays} between 1 and 7 and ${t.minimumAmount} >= 0`,
    ),
  ],
);

export type PayoutSettingsRow = typeof payoutSettings.$inferSelect;
