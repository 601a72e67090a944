import { eq, sql } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { one } from "../../db/one";
import type {
  AccountRow,
  AchAuthorizationRecord,
  MerchantRow,
  PaymentRequestRow,
  ProcessorCallRow,
} from "../../db/schema";
import { charges, merchants, paymentRequests } from "../../db/schema";
import { type Db, type Tx } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { postCharge } from "../../ledger/payment-movements";
import { log } from "../../log";
import { requestTotal } from "../../payments/total";
import { achProcessor, paymentProcessor, processorFor } from "../../processors";
import type { Authorization } from "../../processors/processor";
import type { CardEntryMethod } from "../../schemas/payment-values";
import { serializeChargeForIsv } from "../../serializers/charge";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { serializePlatformFee } from "../../serializers/platform-fee";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { newChargeStatus } from "../charges/status";
import { insertCharge } from "../charges/writes";
import { recordEvent, recordEvents, transactionWithEvents } from "../events/record-event";
import { takesAch } from "../fees/merchant-pricing";
import { paymentLinkPaid } from "../payment-links/payment-links";
import { assertCanTakePayments } from "../scope";
import { invoicePaid } from "../subscriptions/invoice-paid";
import { assertNotCardTesting, countsAsDecline, DECLINES_PER_REQUEST } from "./card-testing";
import { chargeTerms } from "./charge-terms";
import { billingAddressOf, type Customer, type PaymentSource } from "./payment-source";
import { claimCall, makeCall, startCall } from "./processor-calls";
import { voidAuthorization } from "./recover-processor-call";
import { claimRequest, releaseRequest } from "./request-claim";
import { sendReceipt } from "./send-receipt";
import { movePaymentRequest, notifyPaymentRequest } from "./status";

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
  options: {
    method?: "card" | "ach";
    clientAddress?: string | null;
    achAuthorization?: AchAuthorizationRecord;
    /** A merchant-initiated charge: the customer and the saved method it was made with (section 21). */
    saved?: { customerId: string; methodId: string };
    /** Once paid, in the payment's transaction: the pay page's "save this card" (section 21). */
    afterPaid?: (tx: Tx, source: PaymentSource) => Promise<{ id: string } | undefined>;
    /** The request's merchant and its ISV as the caller just read them (a subscription's renewal): not read again. */
    known?: { merchant: MerchantRow; isv: AccountRow };
    /**
     * The request was made held for this attempt (createScopedPaymentRequest's `claimed`: a renewal's
     * invoice): it is not claimed again. Released like a claimed one when the attempt ends without an outcome.
     */
    claimed?: boolean;
  } = {},
) {
  const method = options.method ?? "card";
  const clientAddress = options.clientAddress ?? null;
  const known = options.known?.merchant.id === request.merchantId ? options.known : undefined;
  let merchant: MerchantRow;
  let processor: ReturnType<typeof processorFor>;
  try {
    merchant = known?.merchant ?? one(await db.select().from(merchants).where(eq(merchants.id, request.merchantId)));
    assertCanTakePayments(merchant);
    if (method === "ach" && !takesAch(merchant))
      throw new AppError("ach_not_enabled", "This business does not take bank payments (ACH): pay by card");
    // Chosen before the token is spent: a deployment without the processor refuses with nothing used.
    processor = processorFor(method);
  } catch (error) {
    // Made held for this attempt (a renewal's invoice): free for the customer's own payment.
    if (options.claimed) await releaseRequest(db, request.id);
    throw error;
  }
  if (!options.claimed) await claimRequest(db, request.id);
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
    await releaseRequest(db, request.id);
    throw error;
  }

  const total = requestTotal(request);
  const gatewayMerchantId = merchant.paymentKeys?.gateway_merchant_id ?? "";
  const refusedDebit = source.kind !== "bank_account" && request.debit === false && source.funding === "debit";
  // The call's intent first, committed with its recovery job (./processor-calls.ts); then the call,
  // outside any transaction, under its id as idempotency key.
  let call: ProcessorCallRow | null = null;
  let answered = false;
  let authorization: Authorization;
  if (refusedDebit) authorization = { approved: false, reason: "debit_not_allowed" };
  else {
    try {
      // One statement (the call and its recovery job): no transaction of its own.
      call = await startCall(db, {
        kind: source.kind === "bank_account" ? "debit" : "authorize",
        processor: processor.name,
        amount: total,
        isvAccountId: request.isvAccountId,
        merchantId: request.merchantId,
        subjectId: request.id,
      });
    } catch (error) {
      await releaseRequest(db, request.id);
      throw error;
    }
    const started = call;
    const answer = await makeCall(started, (idempotencyKey) =>
      source.kind === "bank_account"
        ? achProcessor().debit({
            vault: source.vault,
            amount: total,
            currency: "usd",
            gatewayMerchantId,
            idempotencyKey,
          })
        : paymentProcessor().authorize({
            vault: source.vault,
            amount: total,
            currency: "usd",
            gatewayMerchantId,
            entryMethod,
            idempotencyKey,
          }),
    );
    // No answer: a failed charge (processing_error); the call stays started, and the recovery job
    // voids whatever the processor approved late.
    answered = answer.known;
    authorization = answer.known ? answer.answer : { approved: false, reason: "processing_error" };
    if (!answer.known)
      log.warn({ payment_request_id: request.id, processor_call_id: started.id, err: answer.error }, "processor error");
  }

  try {
    const billingAddress = billingAddressOf(customer);
    const isv = known?.isv.id === request.isvAccountId ? known.isv : await getAccount(db, request.isvAccountId);
    const terms = chargeTerms({
      merchant,
      isv,
      request,
      source,
      approved: authorization.approved,
      entryMethod,
      billingAddress,
    });
    // The payment's events (and a subscription's, a payment link's) in one statement at its end.
    return await transactionWithEvents(db, async (tx) => {
      // The call recorded with the charge; taken already (the recovery job gave it up): no charge.
      if (call && answered) {
        const claimed = await claimCall(tx, call.id, "recorded", authorization);
        if (!claimed)
          throw new AppError(
            "payment_in_progress",
            "This payment's authorization was given up while it was being recorded; nothing was charged. Try again",
          );
      }
      const now = clock.now();
      const chargeId = createId("ch");
      const charge = one(
        await insertCharge(tx, {
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
          ...terms,
          cardEntryMethod: entryMethod,
          paymentMethod: method,
          customerId: options.saved?.customerId ?? request.customerId,
          savedMethodId: options.saved?.methodId ?? null,
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
          failureReason: authorization.approved ? null : authorization.reason,
          processorReference: authorization.approved ? authorization.reference : null,
          receiptNumber: `${now.toISOString().slice(0, 10).replace(/-/g, "")}-${chargeId.slice(3, 11).toUpperCase()}`,
          createdAt: now,
          authorizedAt: authorization.approved ? now : null,
          capturedAt: authorization.approved ? now : null,
        } satisfies typeof charges.$inferInsert),
      );
      const posted = await postCharge(tx, charge, brandOf(isv).display_name);
      const platformFeeTxn = posted.platformFee;
      const base = hostedBaseUrl(isv);
      const chargeJson = serializeChargeForIsv(posted.charge, merchant);
      if (!authorization.approved) {
        // The claim serializes attempts on one request, so the count is exact; the limit locks it.
        // A saved method charged without the customer (section 21) never locks the customer's own page.
        const counted = !options.saved && countsAsDecline(authorization.reason) ? 1 : 0;
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
      const kept = options.afterPaid ? await options.afterPaid(tx, source) : undefined;
      // A subscription's invoice: the subscription is paid up (and bills the card just saved, if one was).
      if (paid.subscriptionId) await invoicePaid(tx, paid, base, kept?.id);
      if (paid.paymentLinkId) await paymentLinkPaid(tx, paid);
      const receiptTo = customer.email ?? customer.billing_address?.email ?? paid.emailAddress;
      if (receiptTo) await sendReceipt(tx, paid, charge, merchant, brandOf(isv), receiptTo, customer.locale);
      return { outcome: "paid" as const, request: paid, charge: charge, merchant: merchant, base };
    });
  } catch (error) {
    // Nothing was recorded: void what the processor authorized (by the call's key), and free the
    // request. A void that fails leaves the call started: the recovery job voids it.
    if (call && authorization.approved) {
      const approvedCall = call;
      await claimCall(db, approvedCall.id, "cancelled", authorization)
        .then((claimed) => (claimed ? voidAuthorization(db, approvedCall.id, approvedCall.kind) : undefined))
        .catch((voidError: unknown) =>
          log.error(
            {
              processor_call_id: approvedCall.id,
              err: voidError instanceof Error ? voidError.message : String(voidError),
            },
            "void of an unrecorded authorization failed",
          ),
        );
    }
    await releaseRequest(db, request.id);
    throw error;
  }
}
