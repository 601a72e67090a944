import { and, eq, gt, isNull, not, sql } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { one } from "../../db/one";
import type { AchAuthorizationRecord, ChargeRow, MerchantRow, PaymentRequestRow } from "../../db/schema";
import { type BillingAddress, cardTokens, charges, merchants, paymentRequests } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid, invalidState } from "../../errors";
import { createId } from "../../ids";
import { postCharge } from "../../ledger/movements";
import { log } from "../../log";
import { businessName, merchantLocale } from "../../merchants/facts";
import { must } from "../../must";
import { receiptEmail } from "../../notifications/payment-templates";
import { queueEmail } from "../../notifications/send-email";
import { ACH_AUTHORIZATION_VERSION, achAuthorizationText } from "../../payments/ach-authorization";
import { achProcessor, paymentProcessor, processorFor } from "../../processors";
import type { MerchantDefaults } from "../../schemas/account";
import type { CardEntryMethod, Funding } from "../../schemas/payment-values";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { serializePlatformFee } from "../../serializers/platform-fee";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { newChargeStatus } from "../charges/status";
import { recordEvent, recordEvents } from "../events/record-event";
import { chargeCosts } from "../fees/compute-cost";
import { feeForAchCharge, feeForCardCharge, takesAch } from "../fees/merchant-pricing";
import { isRealPhone, normalizePhone } from "../merchants/application";
import { assertCanTakePayments } from "../scope";
import { achAuthorizationFacts } from "./ach-authorization";
import { assertNotCardTesting, countsAsDecline, DECLINES_PER_REQUEST } from "./card-testing";
import { findPublicPaymentRequest } from "./find-payment-request";
import { effectiveStatus, movePaymentRequest, notBeingPaid, notifyPaymentRequest, pastDeadline } from "./status";

/** How long a payment holds its request while the processor authorizes (a crash frees it after this). */
const CLAIM_MS = 30_000;

/** A card ready to charge: what the platform keeps about it, and the processor's vault reference. */
export type VaultedCard = {
  kind?: "card";
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  funding: Funding;
  fingerprint: string;
  vault: Record<string, unknown>;
};
/** A bank account ready to debit (ACH): never its number, only the ACH processor's vault reference. */
export type VaultedBankAccount = {
  kind: "bank_account";
  last4: string;
  accountType: "checking" | "savings";
  bankName: string | null;
  routingNumber: string;
  fingerprint: string;
  vault: Record<string, unknown>;
};
export type PaymentSource = VaultedCard | VaultedBankAccount;
export type Customer = {
  email?: string;
  phone?: string;
  billing_address?: Partial<BillingAddress> & Record<string, string | undefined>;
};

/**
 * POST /v1/payment_requests/{id}/pay (public: the hosted pages call it with a token from the
 * tokenizer). Spends the single-use token and pays the request with it.
 */
export async function payWithToken(
  db: Db,
  requestId: string,
  input: { token: string; ach_authorization?: { accepted: true; locale?: "en" | "es" } } & Customer,
  context: { clientAddress: string | null },
) {
  const request = await findPublicPaymentRequest(db, requestId);
  for (const [param, phone] of [
    ["phone", input.phone],
    ["billing_address.phone", input.billing_address?.phone],
  ] as const) {
    if (phone && !isRealPhone(phone))
      throw invalid(param, `${param} must be a real phone number in E.164 (+14155550123) or a 10-digit US number`);
  }
  // A bank account pays invoices and manual requests of merchants that take ACH (docs/reference.md section 13).
  const [kind] = await db
    .select({ kind: cardTokens.kind })
    .from(cardTokens)
    .where(and(eq(cardTokens.id, input.token), eq(cardTokens.merchantId, request.merchantId)));
  const method = kind?.kind === "bank_account" ? "ach" : "card";
  if (method === "ach" && request.paymentType !== "INVOICE" && request.paymentType !== "MANUAL")
    throw invalid(
      "token",
      `A ${request.paymentType} payment request is paid by card only: bank payments pay invoices and manual requests`,
      "payment_method_not_allowed",
    );
  // A bank debit needs the payer's authorization, asked before the token is spent.
  let achAuthorization: AchAuthorizationRecord | undefined;
  if (method === "ach") {
    if (!input.ach_authorization?.accepted)
      throw invalid(
        "ach_authorization",
        "A bank payment needs the payer's authorization of the debit: show its text and send ach_authorization.accepted true",
        "ach_authorization_required",
      );
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, request.merchantId));
    const isv = await getAccount(db, request.isvAccountId);
    const locale = input.ach_authorization.locale ?? "en";
    const now = new Date();
    achAuthorization = {
      version: ACH_AUTHORIZATION_VERSION,
      locale,
      text: achAuthorizationText(locale, achAuthorizationFacts(request, merchant, isv, now)),
      accepted_at: now.toISOString(),
      ip_address: context.clientAddress,
    };
  }
  return payRequest(
    db,
    request,
    "MANUAL",
    input,
    async (): Promise<PaymentSource> => {
      // Single use, 30 minutes, bound to the merchant: spent only once the request is claimed.
      const [token] = await db
        .update(cardTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(cardTokens.id, input.token),
            eq(cardTokens.merchantId, request.merchantId),
            isNull(cardTokens.usedAt),
            gt(cardTokens.expiresAt, sql`now()`),
          ),
        )
        .returning();
      if (!token) {
        const [known] = await db
          .select()
          .from(cardTokens)
          .where(and(eq(cardTokens.id, input.token), eq(cardTokens.merchantId, request.merchantId)));
        const why = !known
          ? "No such token"
          : known.usedAt
            ? "This token was already used: tokenize the card again"
            : "This token has expired: tokenize the card again";
        throw invalid("token", why, "token_invalid");
      }
      if (token.kind === "bank_account")
        return {
          kind: "bank_account",
          last4: token.last4,
          accountType: token.accountType ?? "checking",
          bankName: token.bankName,
          routingNumber: token.routingNumber ?? "",
          fingerprint: token.fingerprint,
          vault: token.vault,
        };
      return {
        kind: "card",
        brand: must(token.brand, "a card token's brand"),
        last4: token.last4,
        expMonth: must(token.expMonth, "a card token's expiry month"),
        expYear: must(token.expYear, "a card token's expiry year"),
        funding: must(token.funding, "a card token's funding"),
        fingerprint: token.fingerprint,
        vault: token.vault,
      };
    },
    { method, clientAddress: context.clientAddress, achAuthorization },
  );
}

/**
 * Pays a PENDING request with a card (the hosted pages' token, or a terminal's card): claims the
 * request so that no other attempt runs at the same time, authorizes through the processor, then
 * writes the charge, the request's move and the events in one transaction. A decline is a FAILED
 * charge (`charge.failed`) and leaves the request PENDING for another try, until the card-testing
 * limits (./card-testing.ts) lock the request or refuse the card or the address.
 */
export async function payRequest(
  db: Db,
  request: PaymentRequestRow,
  entryMethod: CardEntryMethod,
  customer: Customer,
  sourceOf: () => Promise<PaymentSource>,
  options: { method?: "card" | "ach"; clientAddress?: string | null; achAuthorization?: AchAuthorizationRecord } = {},
) {
  const method = options.method ?? "card";
  const clientAddress = options.clientAddress ?? null;
  const merchant = one(await db.select().from(merchants).where(eq(merchants.id, request.merchantId)));
  assertCanTakePayments(merchant);
  if (method === "ach" && !takesAch(merchant))
    throw new AppError("ach_not_enabled", "This business does not take bank payments (ACH): pay by card");
  // Chosen before the token is spent: a deployment without the processor refuses with nothing used.
  const processor = processorFor(method);
  await claim(db, request.id);
  let source: PaymentSource;
  try {
    source = await sourceOf();
    // Before the processor sees the card: a card or an address past its declines is refused here.
    await assertNotCardTesting(db, {
      isvAccountId: request.isvAccountId,
      fingerprint: source.fingerprint,
      clientAddress,
    });
  } catch (error) {
    await release(db, request.id);
    throw error;
  }

  const total = request.amount + request.tax + request.tip;
  const gatewayMerchantId = merchant.paymentKeys?.gateway_merchant_id ?? "";
  const onProcessorError = (error: unknown) => {
    log.warn(
      { payment_request_id: request.id, err: error instanceof Error ? error.message : String(error) },
      "processor error",
    );
    return { approved: false as const, reason: "processing_error" };
  };
  const authorization =
    source.kind === "bank_account"
      ? await achProcessor()
          .debit({ vault: source.vault, amount: total, currency: "usd", gatewayMerchantId })
          .catch(onProcessorError)
      : request.debit === false && source.funding === "debit"
        ? ({ approved: false, reason: "debit_not_allowed" } as const)
        : await paymentProcessor()
            .authorize({ vault: source.vault, amount: total, currency: "usd", gatewayMerchantId, entryMethod })
            .catch(onProcessorError);

  try {
    const billingAddress = billingAddressOf(customer);
    // Priced at authorization (docs/reference.md section 13): fee, net and the lines that explain them.
    const priced = !authorization.approved
      ? null
      : source.kind === "bank_account"
        ? feeForAchCharge(merchant, total)
        : feeForCardCharge(merchant, {
            amount: total,
            brand: source.brand,
            funding: source.funding,
            entryMethod,
            keyedWithPostalCode: Boolean(billingAddress?.postal_code),
          });
    // What it cost and what the ISV made on it (docs/reference.md section 19): the ISV's eyes only.
    const isv = await getAccount(db, request.isvAccountId);
    const costed = !authorization.approved
      ? null
      : source.kind === "bank_account"
        ? chargeCosts(isv.costProfile, { method: "ach", amount: total, fee: priced?.fee ?? null })
        : chargeCosts(isv.costProfile, {
            method: "card",
            amount: total,
            fee: priced?.fee ?? null,
            brand: source.brand,
            funding: source.funding,
            entryMethod,
            interchange: (card) => paymentProcessor().interchange(card),
          });
    // The ISV's platform fee chosen when the request was made (section 19); it never eats into the
    // processing fee (the request was refused if it could: this bounds a pricing changed since).
    const platformFee =
      authorization.approved && request.platformFee
        ? Math.min(request.platformFee, Math.max(0, total - (priced?.fee ?? 0))) || null
        : null;
    const card =
      source.kind === "bank_account"
        ? {
            cardBrand: null,
            cardLast4: null,
            cardExpirationDate: null,
            cardType: null,
            cardFingerprint: source.fingerprint,
          }
        : {
            cardBrand: source.brand,
            cardLast4: source.last4,
            cardExpirationDate: `${String(source.expMonth).padStart(2, "0")}/${source.expYear}`,
            cardType: source.funding,
            cardFingerprint: source.fingerprint,
          };
    return await db.transaction(async (tx) => {
      const now = new Date();
      const chargeId = createId("ch");
      const charge = one(
        await tx
          .insert(charges)
          .values({
            id: chargeId,
            isvAccountId: request.isvAccountId,
            merchantId: request.merchantId,
            paymentRequestId: request.id,
            paymentType: request.paymentType,
            status: newChargeStatus(authorization.approved),
            requestedAmount: total,
            amountAuthorized: authorization.approved ? total : 0,
            amountCaptured: authorization.approved ? total : 0,
            tip: request.tip,
            tax: request.tax,
            ...card,
            cardEntryMethod: entryMethod,
            paymentMethod: method,
            ach:
              source.kind === "bank_account"
                ? {
                    last4: source.last4,
                    account_type: source.accountType,
                    bank_name: source.bankName,
                    routing_number: source.routingNumber,
                    ...(options.achAuthorization ? { authorization: options.achAuthorization } : {}),
                  }
                : null,
            billingAddress,
            clientAddress,
            fee: priced?.fee ?? null,
            net: priced ? total - priced.fee - (platformFee ?? 0) : null,
            platformFee,
            feeDetails: priced?.lines ?? null,
            costs: costed?.costs ?? null,
            costDetails: costed?.costDetails ?? null,
            margin: costed?.margin ?? null,
            failureReason: authorization.approved ? null : authorization.reason,
            processorReference: authorization.approved ? authorization.reference : null,
            receiptNumber: `${now.toISOString().slice(0, 10).replace(/-/g, "")}-${chargeId.slice(3, 11).toUpperCase()}`,
            createdAt: now,
            authorizedAt: authorization.approved ? now : null,
            capturedAt: authorization.approved ? now : null,
          })
          .returning(),
      );
      const platformFeeTxn = await postCharge(tx, charge, brandOf(isv).display_name);
      const base = hostedBaseUrl(isv);
      const chargeJson = serializeChargeForIsv(charge, merchant);
      if (!authorization.approved) {
        // The claim serializes attempts on one request, so the count is exact; the limit locks it.
        const counted = countsAsDecline(authorization.reason) ? 1 : 0;
        const after = one(
          await tx
            .update(paymentRequests)
            .set({
              lockedUntil: null,
              lastFailureReason: authorization.reason,
              declinedAttempts: sql`${paymentRequests.declinedAttempts} + ${counted}`,
              lockedAt: sql`case when ${paymentRequests.declinedAttempts} + ${counted} >= ${DECLINES_PER_REQUEST} then now() else null end`,
            })
            .where(eq(paymentRequests.id, request.id))
            .returning(),
        );
        await notifyPaymentRequest(tx, request.id);
        await recordEvent(tx, {
          accountId: request.isvAccountId,
          type: "charge.failed",
          objectId: chargeId,
          data: chargeJson,
        });
        if (after.lockedAt)
          await recordEvent(tx, {
            accountId: request.isvAccountId,
            type: "payment_request.locked",
            objectId: request.id,
            data: serializePaymentRequest(after, base),
          });
        return { outcome: "declined" as const, request: after, charge: charge, merchant: merchant, base };
      }
      const paid = await movePaymentRequest(tx, request.id, "payRequest", {
        paidAt: now,
        chargeId,
        lastFailureReason: null,
      });
      // The payment's events in one statement (recordEvents).
      await recordEvents(tx, [
        { accountId: request.isvAccountId, type: "charge.authorized", objectId: chargeId, data: chargeJson },
        { accountId: request.isvAccountId, type: "charge.paid", objectId: chargeId, data: chargeJson },
        ...(platformFeeTxn
          ? [
              {
                accountId: request.isvAccountId,
                type: "platform_fee.created" as const,
                objectId: platformFeeTxn.id,
                data: serializePlatformFee(platformFeeTxn, charge, null),
              },
            ]
          : []),
        {
          accountId: request.isvAccountId,
          type: "payment_request.paid",
          objectId: request.id,
          data: serializePaymentRequest(paid, base),
        },
      ]);
      const receiptTo = customer.email ?? customer.billing_address?.email ?? paid.emailAddress;
      if (receiptTo) await sendReceipt(tx, paid, charge, merchant, brandOf(isv), receiptTo);
      return { outcome: "paid" as const, request: paid, charge: charge, merchant: merchant, base };
    });
  } catch (error) {
    // Nothing was recorded: give back what the processor authorized, and free the request.
    if (authorization.approved)
      await processor.refund({ reference: authorization.reference, amount: total }).catch(() => undefined);
    await release(db, request.id);
    throw error;
  }
}

/** Takes the request for this attempt, or says why it cannot be paid now. */
async function claim(db: DbOrTx, id: string) {
  const [claimed] = await db
    .update(paymentRequests)
    .set({ lockedUntil: new Date(Date.now() + CLAIM_MS) })
    .where(
      and(
        eq(paymentRequests.id, id),
        eq(paymentRequests.status, "PENDING"),
        not(pastDeadline),
        notBeingPaid,
        isNull(paymentRequests.lockedAt),
      ),
    )
    .returning({ id: paymentRequests.id });
  if (claimed) return;
  const [current] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
  const status = current ? effectiveStatus(current) : "missing";
  if (status === "PENDING" && current?.lockedAt)
    throw new AppError(
      "payment_request_locked",
      "This payment request is locked after too many declined attempts; the business can unlock it or send a new one",
    );
  if (status === "PENDING")
    throw new AppError(
      "payment_in_progress",
      "A payment of this request is being authorized right now; wait for its outcome",
    );
  throw invalidState(`This payment request can no longer be paid: it is ${status}`);
}

async function release(db: DbOrTx, id: string) {
  await db
    .update(paymentRequests)
    .set({ lockedUntil: null })
    .where(and(eq(paymentRequests.id, id), eq(paymentRequests.status, "PENDING")));
}

function billingAddressOf(customer: Customer): BillingAddress | null {
  const given = customer.billing_address ?? {};
  const email = customer.email ?? given.email ?? null;
  const givenPhone = customer.phone ?? given.phone;
  const phone = givenPhone ? normalizePhone(givenPhone) : null;
  const rest = Object.fromEntries(
    Object.entries(given).filter(([k, v]) => k !== "email" && k !== "phone" && v !== undefined && v !== ""),
  );
  if (!email && !phone && Object.keys(rest).length === 0) return null;
  return { ...rest, phone, email };
}

async function sendReceipt(
  tx: DbOrTx,
  request: PaymentRequestRow,
  charge: ChargeRow,
  merchant: MerchantRow,
  brand: MerchantDefaults,
  to: string,
) {
  const locale = merchantLocale(merchant);
  const message = receiptEmail({
    brand,
    locale,
    business: businessName(merchant) || brand.display_name,
    total: charge.amountCaptured,
    brandName: charge.paymentMethod === "ach" ? "ach" : charge.cardBrand,
    last4: charge.paymentMethod === "ach" ? (charge.ach?.last4 ?? null) : charge.cardLast4,
    paidAt: charge.createdAt,
    receiptNumber: charge.receiptNumber,
    bank: charge.paymentMethod === "ach",
  });
  await queueEmail(tx, {
    accountId: request.isvAccountId,
    merchantId: request.merchantId,
    kind: "charge.receipt",
    to,
    locale,
    ...message,
  });
}
