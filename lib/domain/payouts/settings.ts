import { eq, inArray, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { preparedPerDb } from "../../db/prepared";
import { payoutSettings, type PayoutSettingsRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { defaultPayoutSchedule, type PayoutSchedule } from "../../schemas/payout-schedule";

// How an owner's payouts go (docs/reference.md sections 16 and 20): automatic or not, frozen by a
// "this wasn't me" report, a new bank account's cooling-off, and the merchant's payout schedule.
// Their own table, owned here: the merchant's and the ISV account's rows know nothing of them.

export type PayoutSettings = Pick<
  PayoutSettingsRow,
  "automatic" | "frozenAt" | "bankAccountHoldUntil" | "riskPausedAt"
> & {
  schedule: PayoutSchedule;
};
export type PayoutOwner = { id: string; recipient: PayoutSettingsRow["recipient"] };

/** What an owner with no row has: automatic, nothing frozen or held, a payout after each day's settlement. */
export const defaultPayoutSettings: PayoutSettings = {
  automatic: true,
  frozenAt: null,
  bankAccountHoldUntil: null,
  riskPausedAt: null,
  schedule: defaultPayoutSchedule,
};

const columns = {
  ownerId: payoutSettings.ownerId,
  automatic: payoutSettings.automatic,
  frozenAt: payoutSettings.frozenAt,
  bankAccountHoldUntil: payoutSettings.bankAccountHoldUntil,
  riskPausedAt: payoutSettings.riskPausedAt,
  interval: payoutSettings.interval,
  weeklyAnchor: payoutSettings.weeklyAnchor,
  monthlyAnchor: payoutSettings.monthlyAnchor,
  delayDays: payoutSettings.delayDays,
  minimumAmount: payoutSettings.minimumAmount,
};
type Selected = Pick<
  PayoutSettingsRow,
  | "automatic"
  | "frozenAt"
  | "bankAccountHoldUntil"
  | "riskPausedAt"
  | "interval"
  | "weeklyAnchor"
  | "monthlyAnchor"
  | "delayDays"
  | "minimumAmount"
>;

/** A row's settings, or the defaults when there is none. */
const settingsOf = (row: Selected | undefined): PayoutSettings =>
  row
    ? {
        automatic: row.automatic,
        frozenAt: row.frozenAt,
        bankAccountHoldUntil: row.bankAccountHoldUntil,
        riskPausedAt: row.riskPausedAt,
        schedule: {
          interval: row.interval,
          weekly_anchor: row.weeklyAnchor,
          monthly_anchor: row.monthlyAnchor,
          delay_days: row.delayDays,
          minimum_amount: row.minimumAmount,
        },
      }
    : defaultPayoutSettings;

// Read by every GET of an account or a merchant: built once, a named statement on PostgreSQL.
export const settingsByOwner = preparedPerDb((db) =>
  db
    .select(columns)
    .from(payoutSettings)
    .where(eq(payoutSettings.ownerId, sql.placeholder("ownerId")))
    .prepare("payout_settings_by_owner"),
);

/** One owner's payout settings (the defaults when it has no row). */
export async function payoutSettingsOf(db: DbOrTx, ownerId: string): Promise<PayoutSettings> {
  const [row] = await settingsByOwner(db).execute({ ownerId });
  return settingsOf(row);
}

/** Several owners' payout settings at once (a page of merchants), by owner id. */
export async function payoutSettingsOfMany(db: DbOrTx, ownerIds: readonly string[]) {
  const rows = ownerIds.length
    ? await db
        .select(columns)
        .from(payoutSettings)
        .where(inArray(payoutSettings.ownerId, [...ownerIds]))
    : [];
  const byId = new Map(rows.map((r) => [r.ownerId, r]));
  return new Map(ownerIds.map((id) => [id, settingsOf(byId.get(id))] as const));
}

type Change = Partial<
  Pick<PayoutSettings, "automatic" | "frozenAt" | "bankAccountHoldUntil" | "riskPausedAt" | "schedule">
>;

/** Changes an owner's payout settings (its row made when it has none), in the caller's transaction; answers them. */
export async function setPayoutSettings(tx: DbOrTx, owner: PayoutOwner, change: Change): Promise<PayoutSettings> {
  const now = clock.now();
  const { schedule, ...flags } = change;
  const set = {
    ...flags,
    ...(schedule
      ? {
          interval: schedule.interval,
          weeklyAnchor: schedule.weekly_anchor,
          monthlyAnchor: schedule.monthly_anchor,
          delayDays: schedule.delay_days,
          minimumAmount: schedule.minimum_amount,
        }
      : {}),
  };
  const { schedule: _default, ...defaults } = defaultPayoutSettings;
  const [row] = await tx
    .insert(payoutSettings)
    .values({ ownerId: owner.id, recipient: owner.recipient, ...defaults, ...set, updatedAt: now })
    .onConflictDoUpdate({ target: payoutSettings.ownerId, set: { ...set, updatedAt: now } })
    .returning(columns);
  return settingsOf(row);
}
