import { eq, inArray } from "drizzle-orm";

import { clock } from "../../clock";
import { payoutSettings, type PayoutSettingsRow } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

// How an owner's payouts go (docs/reference.md section 16): automatic or not, frozen by a "this
// wasn't me" report, a new bank account's cooling-off. Their own table, owned here: the merchant's
// and the ISV account's rows know nothing of them.

export type PayoutSettings = Pick<PayoutSettingsRow, "automatic" | "frozenAt" | "bankAccountHoldUntil">;
export type PayoutOwner = { id: string; recipient: PayoutSettingsRow["recipient"] };

/** What an owner with no row has: automatic, nothing frozen or held. */
export const defaultPayoutSettings: PayoutSettings = { automatic: true, frozenAt: null, bankAccountHoldUntil: null };

const columns = {
  ownerId: payoutSettings.ownerId,
  automatic: payoutSettings.automatic,
  frozenAt: payoutSettings.frozenAt,
  bankAccountHoldUntil: payoutSettings.bankAccountHoldUntil,
};
/** A row's settings, or the defaults when there is none. */
const settingsOf = (row: PayoutSettings | undefined): PayoutSettings =>
  row
    ? { automatic: row.automatic, frozenAt: row.frozenAt, bankAccountHoldUntil: row.bankAccountHoldUntil }
    : defaultPayoutSettings;

/** One owner's payout settings (the defaults when it has no row). */
export async function payoutSettingsOf(db: DbOrTx, ownerId: string): Promise<PayoutSettings> {
  const [row] = await db.select(columns).from(payoutSettings).where(eq(payoutSettings.ownerId, ownerId));
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

/** Changes an owner's payout settings (its row made when it has none), in the caller's transaction; answers them. */
export async function setPayoutSettings(
  tx: DbOrTx,
  owner: PayoutOwner,
  change: Partial<PayoutSettings>,
): Promise<PayoutSettings> {
  const now = clock.now();
  const [row] = await tx
    .insert(payoutSettings)
    .values({ ownerId: owner.id, recipient: owner.recipient, ...defaultPayoutSettings, ...change, updatedAt: now })
    .onConflictDoUpdate({ target: payoutSettings.ownerId, set: { ...change, updatedAt: now } })
    .returning(columns);
  return settingsOf(row);
}
