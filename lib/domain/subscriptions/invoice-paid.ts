import { clock } from "../../clock";
import { one } from "../../db/one";
import { type PaymentRequestRow } from "../../db/schema";
import { type Tx } from "../../db/types";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { serializeSubscription } from "../../serializers/subscription";
import { recordEvents } from "../events/record-event";
import { scheduleStep } from "./schedule";
import { lockForPaidInvoice } from "./step-lock";
import { updateSubscription } from "./writes";

/**
 * In the payment's transaction (lib/domain/payments/pay-payment-request.ts): a subscription's invoice
 * was paid, by its automatic charge or by the customer from the e-mailed link. The subscription is
 * active again until its period's end (what a retry or the customer paid after a failure counts as
 * recovered: lib/ledger/recovered.ts reads it from the ledger). `methodId`: the card the customer saved while paying, which bills the next periods.
 */
export async function invoicePaid(tx: Tx, request: PaymentRequestRow, base: string, methodId?: string) {
  if (!request.subscriptionId) return;
  const [found] = await lockForPaidInvoice(tx, { id: request.subscriptionId });
  if (!found) return;
  const { sub, recovered } = found;
  const now = clock.now();
  const latest = sub.latestInvoiceId === request.id;
  const status = sub.status === "canceled" || !latest ? sub.status : "active";
  const row = one(
    await updateSubscription(
      tx,
      {
        status,
        ...(methodId ? { paymentMethodId: methodId } : {}),
        ...(latest
          ? {
              attemptCount: 0,
              firstFailedAt: null,
              lastDeclineCode: null,
              lastDeclinedMethodId: null,
              nextActionAt: status === "canceled" ? null : sub.currentPeriodEnd,
            }
          : {}),
        updatedAt: now,
      },
      { id: sub.id },
    ),
  );
  await scheduleStep(tx, row);
  await recordEvents(tx, [
    {
      accountId: request.isvAccountId,
      type: "invoice.paid",
      objectId: request.id,
      data: serializePaymentRequest(request, base),
    },
    ...(row.status !== sub.status || methodId
      ? [
          {
            accountId: row.isvAccountId,
            type: "subscription.updated" as const,
            objectId: row.id,
            data: serializeSubscription(row, recovered),
            fields: [...(row.status !== sub.status ? ["status"] : []), ...(methodId ? ["payment_method"] : [])],
          },
        ]
      : []),
  ]);
}
