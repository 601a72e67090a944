import { and, desc, eq, inArray, lt, type SQL } from "drizzle-orm";

import { clock } from "../../clock";
import { allOf, anyOf } from "../../db/conditions";
import { one } from "../../db/one";
import { accounts, type MerchantRow, type RiskAlertRow, riskAlerts } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { createId } from "../../ids";
import { log } from "../../log";
import { type ListQuery } from "../../schemas/list";
import { defaultRiskActions, type RiskAction, type RiskRule } from "../../schemas/risk";
import { serializeRiskAlert } from "../../serializers/risk-alert";
import { settingsOf } from "../accounts/isv-facts";
import { recordEvent } from "../events/record-event";
import { lockMerchant } from "../merchants/lock-merchant";
import { reconsiderPayouts } from "../payouts/reconsider-payouts";
import { payoutSettingsOf, setPayoutSettings } from "../payouts/settings";
import { insertReserve } from "../reserves/reserves";
import { findScopedMerchant, type Scope, withinScope } from "../scope";
import { type Broken, brokenRules } from "./figures";

// Risk after approval (docs/reference.md section 20): the daily job raises an alert once per
// merchant, rule and period, and does what the ISV chose for the rule; the ISV (or the operator)
// resolves it. Each alert's change runs with its merchant's row locked, as payouts do.

/** The reason a risk reserve gives the merchant, in words. */
const reserveReasons: Record<RiskRule, string> = {
  volume_over_declared: "Your sales this month are well above what you told us to expect",
  large_ticket: "A payment was much larger than the largest you told us to expect",
  refund_rate: "Refunds are above 10 % of your sales of the last 30 days",
  dispute_rate: "Disputes are above 0.75 % of your card payments of the last 30 days",
  decline_spike: "Many declined card attempts in one day (possible card testing)",
};

const pausing: RiskAction[] = ["pause_payouts", "review"];

/** The ISV's chosen action for each rule (its settings, the defaults for the rules it left). */
async function actionsOf(db: DbOrTx, isvAccountId: string) {
  const [isv] = await db
    .select({ id: accounts.id, settings: accounts.settings })
    .from(accounts)
    .where(eq(accounts.id, isvAccountId));
  return { ...defaultRiskActions, ...(isv ? settingsOf(isv).risk_actions : {}) };
}

/** One broken rule: its alert (once), and the ISV's action. Answers the alert made, or null (raised before). */
async function raise(db: Db, broken: Broken, action: RiskAction) {
  return db.transaction(async (tx) => {
    const merchant = await lockMerchant(tx, broken.merchantId);
    if (!merchant || merchant.status !== "APPROVED") return null;
    const now = clock.now();
    const [row] = await tx
      .insert(riskAlerts)
      .values({
        id: createId("ra"),
        isvAccountId: broken.isvAccountId,
        merchantId: broken.merchantId,
        rule: broken.rule,
        period: broken.period,
        figures: broken.figures,
        action,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    let alert: RiskAlertRow = row;
    if (action === "reserve") {
      const reserve = await insertReserve(
        tx,
        merchant,
        { type: "rolling", percent: 10, hold_days: 90, reason: reserveReasons[broken.rule] },
        "risk",
      );
      alert = one(
        await tx.update(riskAlerts).set({ reserveId: reserve.id }).where(eq(riskAlerts.id, row.id)).returning(),
      );
    }
    if (pausing.includes(action)) {
      await setPayoutSettings(tx, { id: merchant.id, recipient: "merchant" }, { riskPausedAt: now });
      await reconsiderPayouts(tx, merchant);
    }
    await recordEvent(tx, {
      accountId: alert.isvAccountId,
      type: "merchant.risk_alert",
      objectId: alert.id,
      data: serializeRiskAlert(alert),
    });
    return alert;
  });
}

/** The merchant's payouts go again when no open alert pauses them, in the caller's transaction. */
async function liftPauseIfDone(tx: DbOrTx, merchant: MerchantRow) {
  const [still] = await tx
    .select({ id: riskAlerts.id })
    .from(riskAlerts)
    .where(
      and(eq(riskAlerts.merchantId, merchant.id), eq(riskAlerts.status, "open"), inArray(riskAlerts.action, pausing)),
    );
  if (still || !(await payoutSettingsOf(tx, merchant.id)).riskPausedAt) return;
  await setPayoutSettings(tx, { id: merchant.id, recipient: "merchant" }, { riskPausedAt: null });
  await reconsiderPayouts(tx, merchant);
}

async function resolveIn(tx: DbOrTx, alert: RiskAlertRow, by: "isv" | "operator" | "system") {
  const merchant = await lockMerchant(tx, alert.merchantId);
  const resolved = one(
    await tx
      .update(riskAlerts)
      .set({ status: "resolved", resolvedAt: clock.now(), resolvedBy: by })
      .where(and(eq(riskAlerts.id, alert.id), eq(riskAlerts.status, "open")))
      .returning(),
  );
  if (merchant) await liftPauseIfDone(tx, merchant);
  return resolved;
}

/**
 * The daily risk job for `day` (its UTC midnight; docs/reference.md section 20): every approved
 * merchant's figures in one statement (./figures.ts), an alert for each rule newly broken, and the
 * `pause_payouts` alerts whose rule is no longer broken resolved. `merchantId`: one merchant only.
 * Answers the alerts raised.
 */
export async function runRiskChecks(db: Db, day: Date, merchantId?: string) {
  const broken = await brokenRules(db, day, merchantId);
  const actions = new Map<string, Record<RiskRule, RiskAction>>();
  const raised: RiskAlertRow[] = [];
  for (const b of broken) {
    const chosen = actions.get(b.isvAccountId) ?? (await actionsOf(db, b.isvAccountId));
    actions.set(b.isvAccountId, chosen);
    const alert = await raise(db, b, chosen[b.rule]);
    if (alert) raised.push(alert);
  }
  // A paused merchant whose rule held today goes again: the pause was the rule's, not a person's.
  const stillBroken = new Set(broken.map((b) => `${b.merchantId} ${b.rule}`));
  const open = await db
    .select()
    .from(riskAlerts)
    .where(
      and(
        eq(riskAlerts.status, "open"),
        eq(riskAlerts.action, "pause_payouts"),
        lt(riskAlerts.createdAt, day),
        ...(merchantId ? [eq(riskAlerts.merchantId, merchantId)] : []),
      ),
    );
  for (const alert of open.filter((a) => !stillBroken.has(`${a.merchantId} ${a.rule}`)))
    await db.transaction((tx) => resolveIn(tx, alert, "system"));
  if (raised.length) log.info({ day: day.toISOString(), alerts: raised.length }, "risk alerts raised");
  return raised;
}

/** GET /v1/risk_alerts: the ISV's alerts (or one merchant's), newest first, by status. */
export async function listRiskAlerts(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; status?: "open" | "resolved" },
) {
  const conditions: SQL[] = [];
  if (query.merchant_id)
    conditions.push(eq(riskAlerts.merchantId, (await findScopedMerchant(db, scope, query.merchant_id)).id));
  if (query.status) conditions.push(eq(riskAlerts.status, query.status));
  if (query.starting_after) {
    const [cursor] = await db
      .select()
      .from(riskAlerts)
      .where(and(withinScope(riskAlerts, scope), eq(riskAlerts.id, query.starting_after)));
    if (!cursor) throw notFound("risk_alert", query.starting_after, "starting_after");
    conditions.push(
      anyOf(
        lt(riskAlerts.createdAt, cursor.createdAt),
        allOf(eq(riskAlerts.createdAt, cursor.createdAt), lt(riskAlerts.id, cursor.id)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(riskAlerts)
    .where(allOf(withinScope(riskAlerts, scope), ...conditions))
    .orderBy(desc(riskAlerts.createdAt), desc(riskAlerts.id))
    .limit(query.limit + 1);
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** POST /v1/risk_alerts/{id}/resolve: closed by a person; the payouts it paused go again. 409 when resolved. */
export async function resolveRiskAlert(db: Db, scope: Scope, id: string, by: "isv" | "operator" = "isv") {
  return db.transaction(async (tx) => {
    const [alert] = await tx
      .select()
      .from(riskAlerts)
      .where(and(withinScope(riskAlerts, scope), eq(riskAlerts.id, id)));
    if (!alert) throw notFound("risk_alert", id, "risk_alert_id");
    if (alert.status !== "open") throw new AppError("invalid_state", `The risk alert ${id} was resolved already`);
    return resolveIn(tx, alert, by);
  });
}

/** The merchant's open alerts (its banner), as the API shows them. */
export async function openAlertsOf(db: DbOrTx, merchantId: string) {
  const rows = await db
    .select()
    .from(riskAlerts)
    .where(and(eq(riskAlerts.merchantId, merchantId), eq(riskAlerts.status, "open")))
    .orderBy(desc(riskAlerts.createdAt));
  return rows.map(serializeRiskAlert);
}
