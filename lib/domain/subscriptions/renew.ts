import { eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { one } from "../../db/one";
import {
  type AccountRow,
  type CustomerRow,
  customers,
  type MerchantRow,
  type PaymentMethodRow,
  paymentMethods,
  type PaymentRequestRow,
  paymentRequests,
  type SubscriptionRow,
  subscriptions,
} from "../../db/schema";
import { type Db, type Tx } from "../../db/types";
import { AppError } from "../../errors";
import { type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { must } from "../../must";
import { cardExpired } from "../../payments/card-expiry";
import { settingsWithDefaults } from "../../schemas/account";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { serializeSubscription } from "../../serializers/subscription";
import { getAccount } from "../accounts/get-account";
import { payWithSavedMethod } from "../charges/charge-saved-method";
import { renewByAccountUpdater } from "../customers/account-updater";
import { recordEvent, transactionWithEvents } from "../events/record-event";
import { createScopedPaymentRequest } from "../payments/create-payment-request";
import { releaseRequest } from "../payments/request-claim";
import { canTakePayments } from "../scope";
import { sendDunningEmail } from "./dunning";
import { subscriptionJson } from "./json";
import { isHardDecline, nextRetryAt, periodOf } from "./periods";
import { endSubscription, endWithInvoice, scheduleStep } from "./schedule";
import { lockForStep } from "./step-lock";
import { updateSubscription } from "./writes";

// A subscription moved in time (docs/reference.md section 21). `next_action_at` says when its next
// step falls due; one step at a time runs under the row's lock: a renewal (the next period and its
// invoice), a retry of the open invoice, or its end. The charge itself runs outside any transaction
// (the intent, the call, the outcome): the step first takes a lease (next_action_at ten minutes on),
// so a second runner finds nothing due, and a runner that died is replaced when the lease ends.

const LEASE_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A subscription's invoice stays payable from its e-mailed link this long (the dunning takes 7 days). */
const INVOICE_PAYABLE_MS = 30 * 24 * 60 * 60 * 1000;

/** The job's handler. */
export async function runSubscriptionDue(db: Db, { subscription_id }: JobPayload<"subscription_due">) {
  await stepSubscription(db, subscription_id);
}

/**
 * A charge to try, with what the step read already: a renewal's `known` rows (its customer, merchant,
 * ISV and method), whose new invoice was made held for this charge (`claimed`) so nobody pays it meanwhile.
 */
type Attempt = {
  sub: SubscriptionRow;
  invoice: PaymentRequestRow;
  known?: { customer: CustomerRow; merchant: MerchantRow; isv: AccountRow; method: PaymentMethodRow | null };
};

/**
 * Runs the subscription's step if one is due at `clock.now()`: null when none was; else what is known
 * of its next step's time without reading it (`next`: its period's end, once its invoice is paid).
 */
export async function stepSubscription(db: Db, id: string): Promise<{ next?: Date } | null> {
  const now = clock.now();
  const step = await transactionWithEvents(db, (tx) => planStep(tx, id, now));
  if (step === null) return null;
  return step === "done" ? {} : { next: await attempt(db, step, now) };
}

async function planStep(tx: Tx, id: string, now: Date): Promise<Attempt | "done" | null> {
  const [found] = await lockForStep(tx, { id });
  if (!found?.sub.nextActionAt || found.sub.nextActionAt > now) return null;
  const { sub } = found;
  if (sub.status === "canceled" || sub.status === "unpaid") {
    await tx.update(subscriptions).set({ nextActionAt: null }).where(eq(subscriptions.id, id));
    return "done";
  }
  const inPeriod = sub.status === "trialing" || sub.status === "active";
  if (inPeriod && now >= sub.currentPeriodEnd) {
    if (sub.cancelAtPeriodEnd) {
      await endSubscription(tx, sub, sub.currentPeriodEnd);
      return "done";
    }
    // Its customer was deleted (a test clock's, or before the customer's deletion ended it): it ends.
    const { customer, merchant } = found;
    if (!customer || customer.deletedAt) {
      await endSubscription(tx, sub, now);
      return "done";
    }
    // Its merchant cannot take payments now (deactivated): no period is billed; it looks again daily.
    if (!merchant || !canTakePayments(merchant)) {
      const waiting = one(
        await tx
          .update(subscriptions)
          .set({ nextActionAt: new Date(now.getTime() + DAY_MS) })
          .where(eq(subscriptions.id, sub.id))
          .returning(),
      );
      await scheduleStep(tx, waiting);
      return "done";
    }
    const isv = must(found.isv, "the subscription's ISV");
    return renew(tx, sub, now, { customer, merchant, isv, method: found.method }, found.recovered);
  }
  const invoice = sub.latestInvoiceId
    ? (await tx.select().from(paymentRequests).where(eq(paymentRequests.id, sub.latestInvoiceId)))[0]
    : undefined;
  if (invoice?.status === "PENDING") return { sub: await lease(tx, sub, now), invoice };
  // Nothing left to charge: back to waiting for the period's end, or (dunning, the invoice gone) the end.
  if (sub.status === "past_due" && invoice?.status !== "PAID") {
    await giveUp(tx, sub, now);
    return "done";
  }
  const waiting = one(
    await tx
      .update(subscriptions)
      .set({ nextActionAt: sub.currentPeriodEnd })
      .where(eq(subscriptions.id, id))
      .returning(),
  );
  await scheduleStep(tx, waiting);
  return "done";
}

async function lease(tx: Tx, sub: SubscriptionRow, now: Date, set: Partial<SubscriptionRow> = {}) {
  const row = one(
    await updateSubscription(
      tx,
      { ...set, nextActionAt: new Date(now.getTime() + LEASE_MS), updatedAt: now },
      { id: sub.id },
    ),
  );
  await scheduleStep(tx, row);
  return row;
}

/** The next period begins: its invoice (a payment request of type INVOICE for the customer), then its charge. */
async function renew(
  tx: Tx,
  sub: SubscriptionRow,
  now: Date,
  known: NonNullable<Attempt["known"]>,
  /** What its dunning recovered, as its lock read it (a renewal moves no money before its charge). */
  recovered: number,
): Promise<Attempt> {
  const index = sub.periodIndex + 1;
  const period = periodOf(sub.billingCycleAnchor, sub.interval, sub.intervalCount, index);
  const { row: invoice } = await createScopedPaymentRequest(
    tx as unknown as Db,
    { isvAccountId: sub.isvAccountId },
    {
      type: "INVOICE",
      merchant_id: sub.merchantId,
      items: sub.items,
      description: sub.description ?? undefined,
      send_via: "none",
      email_address: known.customer.email ?? undefined,
    },
    {
      customerId: sub.customerId,
      subscription: { id: sub.id, periodStart: period.start },
      expiresAt: new Date(now.getTime() + INVOICE_PAYABLE_MS),
      known: { tx, ...known },
      claimed: true,
    },
  );
  const row = await lease(tx, sub, now, {
    periodIndex: index,
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
    latestInvoiceId: invoice.id,
    attemptCount: 0,
    firstFailedAt: null,
    lastDeclineCode: null,
    lastDeclinedMethodId: null,
  });
  await recordEvent(tx, {
    accountId: row.isvAccountId,
    type: "subscription.updated",
    objectId: row.id,
    data: serializeSubscription(row, recovered),
    fields: ["current_period_start", "current_period_end", "latest_invoice"],
  });
  return { sub: row, invoice, known };
}

/** One try of the open invoice on the method, outside any transaction (a failure recorded after); paid: its next time. */
async function attempt(db: Db, { sub, invoice, known }: Attempt, now: Date): Promise<Date | undefined> {
  const claimed = known !== undefined; // a renewal's invoice, made held for this charge
  const customer = known?.customer ?? (await db.select().from(customers).where(eq(customers.id, sub.customerId)))[0];
  let method = known
    ? (known.method ?? undefined)
    : (await db.select().from(paymentMethods).where(eq(paymentMethods.id, sub.paymentMethodId)))[0];
  let failure: string;
  // Whether payRequest took the charge (it frees the request itself when it records no outcome).
  let charged = false;
  if (isHardDecline(sub.lastDeclineCode) && sub.lastDeclinedMethodId === sub.paymentMethodId)
    failure = must(sub.lastDeclineCode, "the last decline"); // never retried on the same method
  else if (!customer || !method || method.detachedAt) failure = "payment_method_unusable";
  else {
    method = await renewByAccountUpdater(db, method, now);
    if (cardExpired(method, now)) failure = "payment_method_expired";
    else {
      try {
        charged = true;
        const result = await payWithSavedMethod(db, invoice, customer, method, { known, claimed });
        if (result.outcome === "paid") return sub.currentPeriodEnd; // the payment's own transaction moved the subscription (invoicePaid)
        failure = result.charge.failureReason ?? "card_declined";
      } catch (error) {
        const code = error instanceof AppError ? error.code : null;
        // Not a refusal (the database, a bug): thrown, so the job tries again; the lease brings the step back.
        if (code === null) throw error;
        // The customer paying the same invoice at this moment: the lease brings this step back.
        if (code === "payment_in_progress") return;
        log.warn({ subscription_id: sub.id, code }, "subscription charge refused");
        failure = code;
      }
    }
  }
  // Not charged (no usable method): the invoice made held for this charge is free for the customer's own payment.
  if (claimed && !charged) await releaseRequest(db, invoice.id);
  await db.transaction((tx) => recordFailure(tx, sub.id, invoice.id, sub.paymentMethodId, failure, now));
}

/** A failed attempt: past_due with the next retry and the customer e-mailed; after the last, the end. */
async function recordFailure(tx: Tx, id: string, invoiceId: string, methodId: string, code: string, now: Date) {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
  if (!sub || sub.latestInvoiceId !== invoiceId || sub.status === "canceled") return;
  const [invoice] = await tx.select().from(paymentRequests).where(eq(paymentRequests.id, invoiceId));
  if (invoice?.status !== "PENDING") return; // paid by the customer meanwhile
  const failures = sub.attemptCount + 1;
  const firstFailedAt = sub.firstFailedAt ?? now;
  const next = nextRetryAt(firstFailedAt, failures);
  const set = { attemptCount: failures, firstFailedAt, lastDeclineCode: code, lastDeclinedMethodId: methodId };
  const isv = await getAccount(tx, sub.isvAccountId);
  const base = hostedBaseUrl(isv);
  await recordEvent(tx, {
    accountId: sub.isvAccountId,
    type: "invoice.payment_failed",
    objectId: invoice.id,
    data: serializePaymentRequest(invoice, base),
  });
  if (!next) {
    const after = await giveUp(tx, sub, now, set);
    await sendDunningEmail(tx, after, invoice, isv, { final: after.status === "canceled" ? "canceled" : "unpaid" });
    return;
  }
  const row = one(
    await updateSubscription(tx, { ...set, status: "past_due", nextActionAt: next, updatedAt: now }, { id }),
  );
  await scheduleStep(tx, row);
  if (sub.status !== "past_due")
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "subscription.updated",
      objectId: row.id,
      data: await subscriptionJson(tx, row),
      fields: ["status"],
    });
  await sendDunningEmail(tx, row, invoice, isv, { nextAttempt: isHardDecline(code) ? null : next });
}

/** The dunning is over: `unpaid` (the invoice stays payable) or `canceled` (the invoice too), per the ISV's setting. */
async function giveUp(tx: Tx, sub: SubscriptionRow, now: Date, set: Partial<SubscriptionRow> = {}) {
  const isv = await getAccount(tx, sub.isvAccountId);
  // A customer paying the invoice at this moment wins: the end waits for the lease (the payment's step finds it paid).
  if (settingsWithDefaults(isv.settings ?? {}).subscription_failure_action === "canceled")
    return endWithInvoice(tx, sub, now, set);
  const row = one(
    await tx
      .update(subscriptions)
      .set({ ...set, status: "unpaid", nextActionAt: null, updatedAt: now })
      .where(eq(subscriptions.id, sub.id))
      .returning(),
  );
  await recordEvent(tx, {
    accountId: row.isvAccountId,
    type: "subscription.updated",
    objectId: row.id,
    data: await subscriptionJson(tx, row),
    fields: ["status"],
  });
  return row;
}
