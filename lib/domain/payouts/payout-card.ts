import { and, desc, eq, isNull } from "drizzle-orm";

import { revokeHomeSessions } from "../../auth/home-session";
import { clock } from "../../clock";
import { one } from "../../db/one";
import { type MerchantRow, type PayoutCardRow, payoutCards } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { cardExpired } from "../../payments/card-expiry";
import { businessDaysAfter } from "../../payouts/business-days";
import { instantRail } from "../../payouts/instant-rail";
import type { Funding } from "../../schemas/payment-values";
import { getAccount } from "../accounts/get-account";
import { newBankAccountHoldDaysOf } from "../accounts/isv-facts";
import { queueChangeNotices } from "../home/change-notices";
import { type ChangingSession, requireStepUp } from "../home/settings";
import { lockMerchant } from "../merchants/lock-merchant";
import { spendToken } from "../payments/payment-source";
import { findScopedMerchant, type Scope } from "../scope";
import { payoutSettingsOf } from "./settings";

// The merchant's debit card for instant payouts by push to card (docs/reference.md section 20): a
// card token of the tokenizer frame (the merchant's home, or the ISV's own page with the merchant's
// publishable key), kept as the processor's vault answered it. Only a debit card: a credit or prepaid
// card is refused in words. A new card is a new place for money to go, guarded as a new bank
// account is: the home asks for a recent sign-in, the previous contact and owner one are told (with
// the "this wasn't me" link), and instant payouts reach it only after the ISV's
// `new_bank_account_hold_days` business days.

/** Why a card cannot receive payouts, by its funding (the home says it in the reader's words). */
export const payoutCardRefusals: Record<Exclude<Funding, "debit">, string> = {
  credit: "This is a credit card: instant payouts are paid to a debit card only",
  prepaid: "Prepaid cards cannot receive payouts: add a debit card linked to a bank account",
  unknown: "This card could not be confirmed as a debit card: add a debit card linked to a bank account",
};

/** Who adds the card: the merchant in its home (a recent sign-in needed), or its ISV by the API. */
export type CardChanger = { by: "home"; session: ChangingSession } | { by: "isv" };

/** The merchant's card for instant payouts now (null: none). */
export async function activePayoutCard(db: DbOrTx, merchantId: string): Promise<PayoutCardRow | null> {
  const [row] = await db
    .select()
    .from(payoutCards)
    .where(and(eq(payoutCards.merchantId, merchantId), isNull(payoutCards.removedAt)))
    .orderBy(desc(payoutCards.createdAt))
    .limit(1);
  return row ?? null;
}

/** The card with this id whatever became of it (a payout names the card it was made for). */
export async function payoutCardById(db: DbOrTx, id: string): Promise<PayoutCardRow | null> {
  const [row] = await db.select().from(payoutCards).where(eq(payoutCards.id, id));
  return row ?? null;
}

/** Whether an instant payout may go to the card now: `usable`, `cooling` (added too recently) or `expired`. */
export function payoutCardState(card: PayoutCardRow, now = clock.now()): "usable" | "cooling" | "expired" {
  if (cardExpired(card, now)) return "expired";
  return card.usableFrom > now ? "cooling" : "usable";
}

/**
 * Adds the merchant's debit card from a card token (it replaces the card before): in one transaction
 * with the merchant locked, the token spent (a refusal leaves it unspent), the card checked (a debit
 * card, not expired), the old card removed, the new one kept with its `usable_from`, and the notices
 * queued. 400 `payout_card_refused` (credit, prepaid), `token_invalid`; 403 `merchant_not_approved`,
 * `payouts_frozen`, `reauthentication_required` (the home without a recent sign-in).
 */
export async function addPayoutCard(db: Db, merchantId: string, token: string, changer: CardChanger) {
  return db.transaction(async (tx) => {
    const merchant = await lockMerchant(tx, merchantId);
    if (!merchant) throw notFound("merchant", merchantId);
    if (merchant.status !== "APPROVED" || merchant.deactivated)
      throw new AppError("merchant_not_approved", "A payout card is added once the merchant is approved");
    if (changer.by === "home") await requireStepUp(tx, merchant, changer.session);
    else if ((await payoutSettingsOf(tx, merchant.id)).frozenAt)
      throw new AppError(
        "payouts_frozen",
        "A change was reported as not the merchant's: payout destinations are changed by support until it is cleared",
      );
    if (!instantRail().pushesToCards)
      throw new AppError("payout_card_refused", "Instant payouts to debit cards are not available here yet");
    const source = await spendToken(tx, token, merchant.id);
    if (source.kind !== "card")
      throw invalid("token", "This is a bank account: tokenize a debit card", "payout_card_refused");
    if (source.funding !== "debit") throw invalid("token", payoutCardRefusals[source.funding], "payout_card_refused");
    const now = clock.now();
    await removePayoutCard(tx, merchant);
    const isv = await getAccount(tx, merchant.isvAccountId);
    const card = one(
      await tx
        .insert(payoutCards)
        .values({
          id: createId("pcard"),
          merchantId: merchant.id,
          brand: source.brand,
          last4: source.last4,
          expMonth: source.expMonth,
          expYear: source.expYear,
          fingerprint: source.fingerprint,
          vault: source.vault,
          usableFrom: businessDaysAfter(now, newBankAccountHoldDaysOf(isv)),
          createdAt: now,
        })
        .returning(),
    );
    await queueChangeNotices(tx, isv, merchant, { kind: "payout_card", last4: card.last4, brand: card.brand });
    if (changer.by === "home")
      await revokeHomeSessions(tx, merchant.id, "payout_card_changed", { except: changer.session?.id });
    return card;
  });
}

/** Removes the merchant's card (instant payouts then go by RTP, or are unavailable); false when there was none. */
export async function removePayoutCard(db: DbOrTx, merchant: Pick<MerchantRow, "id">) {
  const removed = await db
    .update(payoutCards)
    .set({ removedAt: clock.now() })
    .where(and(eq(payoutCards.merchantId, merchant.id), isNull(payoutCards.removedAt)))
    .returning({ id: payoutCards.id });
  return removed.length > 0;
}

/** GET /v1/merchants/{id}/payout_card: the ISV's merchant's card (404 `resource_missing` when it has none). */
export async function getPayoutCard(db: Db, scope: Scope, merchantId: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  const card = await activePayoutCard(db, merchant.id);
  if (!card) throw notFound("payout_card", merchant.id);
  return card;
}

/** POST /v1/merchants/{id}/payout_card `{ token }`: the ISV adds its merchant's debit card. */
export async function setPayoutCard(db: Db, scope: Scope, merchantId: string, token: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  return addPayoutCard(db, merchant.id, token, { by: "isv" });
}

/** DELETE /v1/merchants/{id}/payout_card: removed (404 when it has none). */
export async function deletePayoutCard(db: Db, scope: Scope, merchantId: string) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  const card = await activePayoutCard(db, merchant.id);
  if (!card || !(await removePayoutCard(db, merchant))) throw notFound("payout_card", merchant.id);
  return { ...card, removedAt: clock.now() };
}
