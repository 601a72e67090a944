import { createHmac } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { cardTokens, merchants } from "../../db/schema";
import { AppError, invalidFields, unauthenticated } from "../../errors";
import { createId } from "../../ids";
import { checkCard, type CardInput, type CardProblem } from "../../payments/card-check";
import { paymentProcessor } from "../../processors";
import { platformSecrets } from "../../secrets-store";
import { assertCanTakePayments } from "../payments/scope";
import type { MerchantRow } from "../merchants/find-merchant";

export const TOKEN_TTL_MS = 30 * 60 * 1000;
export type TokenRow = typeof cardTokens.$inferSelect;

const messages: Record<CardProblem["code"], string> = {
  invalid_number: "The card number is not valid",
  invalid_expiry: "The expiry date is not valid",
  expired: "The card has expired",
  invalid_cvc: "The security code (CVC) is not valid for this card",
};

/** The merchant whose tokenizer publishable key this is; null when none is. */
export async function merchantByPublishableKey(db: Db, key: string): Promise<MerchantRow | null> {
  if (!/^pk_(test|live)_[0-9A-Za-z]{32}$/.test(key)) return null;
  const [row] = await db
    .select()
    .from(merchants)
    .where(eq(sql`${merchants.payment}->>'tokenizer_publishable_key'`, key));
  return row ?? null;
}

/**
 * A stable fingerprint of a card number within one ISV (the same card gives the same fingerprint for
 * that ISV's merchants, and nothing another ISV can correlate): HMAC-SHA256 keyed by the platform.
 */
export function fingerprint(isvAccountId: string, number: string) {
  return createHmac("sha256", platformSecrets().encryption_key).update(`card:${isvAccountId}:${number}`).digest("base64url").slice(0, 16);
}

/**
 * POST /v1/tokens (CONTRACT.md section 10), called by the tokenizer frame with the merchant's
 * publishable key: checks the card, hands it to the processor's vault and answers a single-use
 * `tok_` bound to the merchant for 30 minutes. The number and CVC are never stored or logged.
 */
export async function createToken(db: Db, merchantId: string, input: { card: CardInput }) {
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw unauthenticated("Invalid publishable key");
  assertCanTakePayments(merchant);
  if (!merchant.payment.tokenizer_active) throw new AppError("merchant_not_approved", "The merchant's tokenizer is not active yet");
  const checked = checkCard(input.card);
  if (!checked.ok) {
    throw invalidFields(checked.problems.map((p) => ({ param: `card.${p.field}`, code: "card_invalid", message: messages[p.code] })));
  }
  const { funding, vault } = await paymentProcessor().vault(checked.card);
  const [row] = await db
    .insert(cardTokens)
    .values({
      id: createId("tok"),
      merchantId: merchant.id,
      brand: checked.card.brand,
      last4: checked.card.last4,
      expMonth: checked.card.expMonth,
      expYear: checked.card.expYear,
      funding,
      fingerprint: fingerprint(merchant.isvAccountId, checked.card.number),
      vault,
      expiresAt: new Date(Date.now() + TOKEN_TTL_MS),
    })
    .returning();
  return row!;
}

export function serializeToken(row: TokenRow) {
  return {
    object: "token" as const,
    id: row.id,
    card: { brand: row.brand, last4: row.last4, exp_month: row.expMonth, exp_year: row.expYear, funding: row.funding, fingerprint: row.fingerprint },
    expires_at: row.expiresAt.toISOString(),
  };
}
