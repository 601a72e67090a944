import { and, count, eq, gt, isNotNull, ne } from "drizzle-orm";

import { clock } from "../../clock";
import {
  type AccountRow,
  charges,
  type CustomerRow,
  type MerchantRow,
  merchants,
  type PaymentMethodRow,
  type PaymentRequestRow,
} from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { must } from "../../must";
import { ACH_AUTHORIZATION_VERSION } from "../../payments/ach-authorization";
import { cardExpired } from "../../payments/card-expiry";
import type { SavedChargeInput } from "../../schemas/customers";
import { chargeSerializerFor } from "../../serializers/charge";
import { findCustomer } from "../customers/customers";
import { findPaymentMethod } from "../customers/payment-methods";
import { cancelPaymentRequest } from "../payments/cancel-payment-request";
import { createScopedPaymentRequest } from "../payments/create-payment-request";
import { payRequest } from "../payments/pay-payment-request";
import { type PaymentSource, vaultedSource } from "../payments/payment-source";
import { assertCanTakePayments, type Scope } from "../scope";
import { withLedgerFact } from "./ledger-charge";

// Merchant-initiated charges (docs/reference.md section 21): a customer's saved method charged
// without the customer present. The charge is made as every other, through a MANUAL payment request
// (made for it, with the customer), and the same authorization, ledger and events; a decline answers
// 402 `card_declined` with the failed charge, and the request made for it is canceled.

/** Declined merchant-initiated charges a merchant may make in an hour (a stolen key testing saved cards). */
export const SAVED_DECLINES_PER_MERCHANT = { declines: 20, windowMs: 60 * 60 * 1000 };

/** What pays: the saved method as the processor's vault holds it. */
const sourceOf = (method: PaymentMethodRow): PaymentSource =>
  vaultedSource({ ...method, kind: method.type === "us_bank_account" ? "bank_account" : "card" });

/** 429 `too_many_declines` once the merchant's merchant-initiated declines fill the hour's window. */
async function assertMerchantNotTesting(db: Db, merchantId: string) {
  const since = new Date(clock.ms() - SAVED_DECLINES_PER_MERCHANT.windowMs);
  const [row] = await db
    .select({ n: count() })
    .from(charges)
    .where(
      and(
        eq(charges.merchantId, merchantId),
        eq(charges.status, "FAILED"),
        // POST /v1/charges' own (a subscription's renewals are not a key's doing).
        eq(charges.paymentType, "MANUAL"),
        ne(charges.failureReason, "processing_error"),
        isNotNull(charges.savedMethodId),
        gt(charges.createdAt, since),
      ),
    );
  if ((row?.n ?? 0) >= SAVED_DECLINES_PER_MERCHANT.declines)
    throw new AppError(
      "too_many_declines",
      `This merchant's charges of saved methods were declined ${SAVED_DECLINES_PER_MERCHANT.declines} times in the last hour; try again later`,
      { retryAfterSeconds: 15 * 60 },
    );
}

/**
 * POST /v1/charges `{ merchant_id, customer, payment_method, amount, tip?, tax?, description?,
 * platform_fee? }`: the charge (200), or 402 `card_declined` with the failed charge.
 */
export async function chargeSavedMethod(db: Db, scope: Scope, input: SavedChargeInput) {
  const customer = await findCustomer(db, scope, input.customer);
  if (input.merchant_id && input.merchant_id !== customer.merchantId)
    throw notFound("customer", input.customer, "customer");
  const method = await findPaymentMethod(db, scope, input.payment_method);
  if (method.customerId !== customer.id || method.detachedAt)
    throw invalid(
      "payment_method",
      `The payment method ${method.id} is not one of ${customer.id}'s saved methods`,
      "payment_method_unusable",
    );
  if (cardExpired(method, clock.now()))
    throw invalid(
      "payment_method",
      `This card expired at the end of ${String(method.expMonth).padStart(2, "0")}/${method.expYear}: ask the customer for a new card`,
      "payment_method_expired",
    );
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, customer.merchantId));
  assertCanTakePayments(must(merchant, "the customer's merchant"));
  await assertMerchantNotTesting(db, customer.merchantId);

  const { row: request } = await createScopedPaymentRequest(
    db,
    scope,
    {
      type: "MANUAL",
      merchant_id: customer.merchantId,
      amount: input.amount,
      tax: input.tax,
      tip: input.tip,
      description: input.description,
      platform_fee: input.platform_fee,
    },
    { customerId: customer.id },
  );
  let result: Awaited<ReturnType<typeof payWithSavedMethod>>;
  try {
    result = await payWithSavedMethod(db, request, customer, method);
  } catch (error) {
    await cancelPaymentRequest(db, scope, request.id).catch(() => undefined);
    throw error;
  }
  const charge = chargeSerializerFor(scope)(await withLedgerFact(db, result.charge), result.merchant);
  if (result.outcome === "declined") {
    await cancelPaymentRequest(db, scope, request.id).catch(() => undefined);
    throw new AppError("card_declined", declineMessage(result.charge.failureReason), {
      param: "payment_method",
      details: { decline_code: result.charge.failureReason ?? "card_declined", charge },
    });
  }
  return charge;
}

/**
 * Pays `request` with the customer's saved method, without the customer present: the card as the
 * processor's vault keeps it, a bank account under the consent given when it was kept. The payment's
 * outcome (paid or declined) as payRequest answers it.
 */
export async function payWithSavedMethod(
  db: Db,
  request: PaymentRequestRow,
  customer: CustomerRow,
  method: PaymentMethodRow,
  options: {
    /** The merchant and its ISV as the caller just read them (a subscription's renewal). */
    known?: { merchant: MerchantRow; isv: AccountRow };
    /** The request was made held for this payment (a renewal's invoice: payRequest's `claimed`). */
    claimed?: boolean;
  } = {},
) {
  const ach = method.type === "us_bank_account";
  return payRequest(
    db,
    request,
    "MANUAL",
    { email: customer.email ?? undefined, locale: method.consent.locale },
    async () => sourceOf(method),
    {
      method: ach ? "ach" : "card",
      saved: { customerId: customer.id, methodId: method.id },
      known: options.known,
      claimed: options.claimed,
      // A saved bank account's debit is authorized by the consent the customer gave when it was kept.
      achAuthorization: ach
        ? {
            version: ACH_AUTHORIZATION_VERSION,
            locale: method.consent.locale,
            text: method.consent.text,
            accepted_at: method.consent.accepted_at,
            ip_address: method.consent.ip_address,
          }
        : undefined,
    },
  );
}

const declineMessage = (reason: string | null) =>
  reason === "insufficient_funds"
    ? "The card was declined: insufficient funds"
    : reason === "processing_error"
      ? "The card's bank did not answer: nothing was charged; try again"
      : `The card was declined (${reason ?? "card_declined"})`;
