import { eq, sql } from "drizzle-orm";

import { isPublishableKey } from "../../auth/secrets";
import { clock } from "../../clock";
import { one } from "../../db/one";
import type { MerchantRow } from "../../db/schema";
import { cardTokens, merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, type FieldError, invalid, invalidFields, unauthenticated } from "../../errors";
import { createId } from "../../ids";
import { type CardInput, type CardProblem, checkCard } from "../../payments/card-check";
import { fingerprint } from "../../payments/fingerprint";
import { bankNameOf } from "../../payments/routing-directory";
import { achProcessor, paymentProcessor } from "../../processors";
import { abaChecksumValid, isAccountNumber } from "../../schemas/aba";
import { type TokenInput } from "../../schemas/tokens";
import { takesAch } from "../fees/merchant-pricing";
import { assertCanTakePayments } from "../scope";

export const TOKEN_TTL_MS = 30 * 60 * 1000;
/** A token's creation and expiry from one clock reading: exactly TOKEN_TTL_MS apart. */
const lifetime = (now = clock.now()) => ({ createdAt: now, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS) });

const messages: Record<CardProblem["code"], string> = {
  invalid_number: "The card number is not valid",
  invalid_expiry: "The expiry date is not valid",
  expired: "The card has expired",
  invalid_cvc: "The security code (CVC) is not valid for this card",
};

/** The merchant whose tokenizer publishable key this is; null when none is. */
export async function merchantByPublishableKey(db: Db, key: string): Promise<MerchantRow | null> {
  if (!isPublishableKey(key)) return null;
  const [row] = await db
    .select()
    .from(merchants)
    .where(eq(sql`${merchants.payment}->>'tokenizer_publishable_key'`, key));
  return row ?? null;
}

/**
 * POST /v1/tokens (docs/reference.md section 10), called by the tokenizer frame with the merchant's
 * publishable key: checks the card, hands it to the processor's vault and answers a single-use
 * `tok_` bound to the merchant for 30 minutes. The number and CVC are never stored or logged.
 */
export async function createToken(db: Db, merchantId: string, input: TokenInput) {
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw unauthenticated("Invalid publishable key");
  assertCanTakePayments(merchant);
  if (!merchant.payment.tokenizer_active)
    throw new AppError("merchant_not_approved", "The merchant's tokenizer is not active yet");
  if (input.card && input.bank_account)
    throw invalid("bank_account", "Give either card or bank_account, not both", "parameter_not_allowed");
  if (input.bank_account) return createBankToken(db, merchant, input.bank_account);
  if (!input.card) throw invalid("card", "card (or bank_account) is required", "parameter_missing");
  return createCardToken(db, merchant, input.card);
}

async function createCardToken(db: Db, merchant: MerchantRow, input: CardInput) {
  const checked = checkCard(input);
  if (!checked.ok) {
    throw invalidFields(
      checked.problems.map((p) => ({ param: `card.${p.field}`, code: "card_invalid", message: messages[p.code] })),
    );
  }
  const { funding, vault } = await paymentProcessor().vault(checked.card);
  const row = one(
    await db
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
        ...lifetime(),
      })
      .returning(),
  );
  return row;
}

/**
 * A bank account (ACH, docs/reference.md section 13): nine-digit routing number with a valid ABA
 * checksum, a 4-17 digit account number, the holder's name and the account type. The account
 * number goes to the ACH processor's vault only; the token keeps its last four, the routing number
 * (public: it names the bank) and the bank's name when known.
 */
async function createBankToken(db: Db, merchant: MerchantRow, input: NonNullable<TokenInput["bank_account"]>) {
  if (!takesAch(merchant))
    throw new AppError("ach_not_enabled", "This business does not take bank payments (ACH): pay by card");
  const routing = input.routing_number.replace(/[\s-]/g, "");
  const account = input.account_number.replace(/[\s-]/g, "");
  const holder = input.account_holder_name.trim();
  const problems: FieldError[] = [];
  if (!/^\d{9}$/.test(routing))
    problems.push({
      param: "bank_account.routing_number",
      code: "bank_account_invalid",
      message: "The routing number must be 9 digits",
    });
  else if (!abaChecksumValid(routing))
    problems.push({
      param: "bank_account.routing_number",
      code: "bank_account_invalid",
      message: "This routing number is not valid (its check digit does not match)",
    });
  if (!isAccountNumber(account))
    problems.push({
      param: "bank_account.account_number",
      code: "bank_account_invalid",
      message: "The account number must be 4 to 17 digits",
    });
  if (!holder)
    problems.push({
      param: "bank_account.account_holder_name",
      code: "parameter_missing",
      message: "The account holder's name is required",
    });
  if (problems.length) throw invalidFields(problems);
  const { vault } = await achProcessor().vault({
    routingNumber: routing,
    accountNumber: account,
    accountType: input.account_type,
    holderName: holder,
  });
  const row = one(
    await db
      .insert(cardTokens)
      .values({
        id: createId("tok"),
        kind: "bank_account",
        merchantId: merchant.id,
        last4: account.slice(-4),
        bankName: await bankNameOf(routing),
        accountType: input.account_type,
        routingNumber: routing,
        fingerprint: fingerprint(merchant.isvAccountId, `${routing}:${account}`, "bank"),
        vault: { ...vault, holder_name: holder },
        ...lifetime(),
      })
      .returning(),
  );
  return row;
}
