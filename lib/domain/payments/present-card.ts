import { and, eq, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { merchants, paymentRequests } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalidFields, invalidState, notFound } from "../../errors";
import { checkCard } from "../../payments/card-check";
import { fingerprint } from "../../payments/fingerprint";
import { paymentProcessor } from "../../processors";
import { DEFAULT_TEST_CARD } from "../../processors/sandbox";
import type { Scope } from "../scope";
import { payRequest } from "./pay-payment-request";

/**
 * Sandbox: POST /v1/test_helpers/terminals/{terminal_id}/present_card. A customer taps, inserts or
 * swipes a card at the terminal: the terminal's open request is paid with it (or declined).
 */
export async function presentCard(
  db: Db,
  scope: Scope,
  terminalId: string,
  input: { card_entry_method: "CHIP" | "SWIPE"; card_number?: string },
) {
  const [owner] = await db
    .select({ id: merchants.id })
    .from(merchants)
    .where(
      and(eq(merchants.isvAccountId, scope.isvAccountId), eq(sql`${merchants.payment}->>'terminal_id'`, terminalId)),
    );
  if (!owner || (scope.merchantId && scope.merchantId !== owner.id))
    throw notFound("terminal", terminalId, "terminal_id");
  const [request] = await db
    .select()
    .from(paymentRequests)
    .where(and(eq(paymentRequests.terminalId, terminalId), eq(paymentRequests.status, "PENDING")));
  if (!request) throw invalidState(`Terminal ${terminalId} has no open payment request`);
  const now = clock.now();
  const checked = checkCard(
    { number: input.card_number ?? DEFAULT_TEST_CARD, exp_month: 12, exp_year: now.getUTCFullYear() + 3, cvc: "" },
    now,
    {
      cardPresent: true,
    },
  );
  if (!checked.ok)
    throw invalidFields([
      { param: "card_number", code: "card_invalid", message: "card_number is not a valid card number" },
    ]);
  return payRequest(db, request, input.card_entry_method, {}, async () => {
    const { funding, vault } = await paymentProcessor().vault(checked.card);
    const { brand, last4, expMonth, expYear } = checked.card;
    return {
      brand,
      last4,
      expMonth,
      expYear,
      funding,
      fingerprint: fingerprint(request.isvAccountId, checked.card.number),
      vault,
    };
  });
}
