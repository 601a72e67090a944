import { eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { one } from "../../db/one";
import { paymentRequests, type SubscriptionRow, subscriptions } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { enqueueJob } from "../../jobs/job-types";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import { movePaymentRequestIfAllowed, notBeingPaid } from "../payments/status";
import { subscriptionJson } from "./json";

// When a subscription's next step runs, and its end (docs/reference.md section 21).

/** A live subscription's next step as a job at its time; a test clock's are run by advancing the clock. */
export async function scheduleStep(tx: DbOrTx, row: SubscriptionRow) {
  if (row.testClockId || !row.nextActionAt) return;
  await enqueueJob(
    tx,
    "subscription_due",
    { subscription_id: row.id },
    { runAt: row.nextActionAt, key: `subscription_${row.id}_${row.nextActionAt.getTime()}` },
  );
}

/** The subscription canceled at `at`, in the caller's transaction, with `subscription.canceled`. */
export async function endSubscription(
  tx: DbOrTx,
  current: SubscriptionRow,
  at: Date,
  set: Partial<SubscriptionRow> = {},
) {
  const row = one(
    await tx
      .update(subscriptions)
      .set({
        ...set,
        status: "canceled",
        canceledAt: current.canceledAt ?? at,
        endedAt: at,
        nextActionAt: null,
        updatedAt: at,
      })
      .where(eq(subscriptions.id, current.id))
      .returning(),
  );
  await recordEvent(tx, {
    accountId: row.isvAccountId,
    type: "subscription.canceled",
    objectId: row.id,
    data: await subscriptionJson(tx, row),
  });
  return row;
}

/**
 * The subscription canceled at `at` with its open invoice (nothing more to pay), in the caller's
 * transaction: 409 `payment_in_progress` while the customer is paying that invoice.
 */
export async function endWithInvoice(tx: DbOrTx, sub: SubscriptionRow, at: Date, set: Partial<SubscriptionRow> = {}) {
  if (sub.latestInvoiceId) {
    const [invoice] = await tx
      .select({ status: paymentRequests.status })
      .from(paymentRequests)
      .where(eq(paymentRequests.id, sub.latestInvoiceId));
    if (invoice?.status === "PENDING") {
      const moved = await movePaymentRequestIfAllowed(
        tx,
        sub.latestInvoiceId,
        "cancelRequest",
        { canceledAt: at },
        notBeingPaid,
      );
      if (!moved)
        throw new AppError(
          "payment_in_progress",
          "The customer is paying this subscription's invoice right now; try again in a few seconds",
        );
      const isv = await getAccount(tx, moved.isvAccountId);
      await recordEvent(tx, {
        accountId: moved.isvAccountId,
        type: "payment_request.canceled",
        objectId: moved.id,
        data: serializePaymentRequest(moved, hostedBaseUrl(isv)),
      });
    }
  }
  return endSubscription(tx, sub, at, set);
}
