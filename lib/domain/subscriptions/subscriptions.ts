import { and, eq, type SQL, sql } from "drizzle-orm";

import { atTime } from "../../clock-scope";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { merchants, type SubscriptionRow, subscriptions } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalid, invalidState, notFound } from "../../errors";
import { createId } from "../../ids";
import { recoveredWithin } from "../../ledger/recovered";
import { must } from "../../must";
import { cardExpired } from "../../payments/card-expiry";
import type { ListQuery } from "../../schemas/list";
import type { SubscriptionStatus } from "../../schemas/payment-values";
import type { CreateSubscriptionInput, UpdateSubscriptionInput } from "../../schemas/subscriptions";
import { serializeSubscription } from "../../serializers/subscription";
import { findCustomer } from "../customers/customers";
import { findPaymentMethod } from "../customers/payment-methods";
import { recordEvent } from "../events/record-event";
import { mergeMetadata } from "../metadata";
import { assertCanTakePayments, findScopedMerchant, type Scope, withinScope } from "../scope";
import { objectTime } from "../test-clocks/object-time";
import { subscriptionJson } from "./json";
import { stepSubscription } from "./renew";
import { endWithInvoice, scheduleStep } from "./schedule";

// Subscriptions (docs/reference.md section 21): a customer's saved method billed each period. This
// file holds what the API asks (create, read, change, cancel); ./renew.ts moves a subscription in
// time (renewals, retries, the end of its dunning).

const DAY_MS = 24 * 60 * 60 * 1000;

/** The subscription within the caller's scope (404 otherwise, whoever's it is). */
export async function findSubscription(db: DbOrTx, scope: Scope, id: string, param = "subscription_id") {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(withinScope(subscriptions, scope), eq(subscriptions.id, id)));
  if (!row) throw notFound("subscription", id, param);
  return row;
}

/** The customer's method to bill: its own, not detached, not expired at `now` (400 naming it otherwise). */
async function usableMethod(db: DbOrTx, scope: Scope, customerId: string, methodId: string, now: Date) {
  const method = await findPaymentMethod(db, scope, methodId);
  if (method.customerId !== customerId || method.detachedAt)
    throw invalid(
      "payment_method",
      `The payment method ${method.id} is not one of ${customerId}'s saved methods`,
      "payment_method_unusable",
    );
  if (cardExpired(method, now))
    throw invalid("payment_method", "This card has expired: save the customer's new card", "payment_method_expired");
  return method;
}

/**
 * POST /v1/subscriptions: with `trial_days`, `trialing` until the trial ends; without, the first
 * period is charged now, and the answer says how it went (`active`, or `past_due` with its retries
 * scheduled and the customer e-mailed). A customer on a test clock lives at the clock's time.
 */
export async function createSubscription(db: Db, scope: Scope, input: CreateSubscriptionInput) {
  const customer = await findCustomer(db, scope, input.customer);
  if (input.merchant_id && input.merchant_id !== customer.merchantId)
    throw notFound("customer", input.customer, "customer");
  const merchant = must(
    (await db.select().from(merchants).where(eq(merchants.id, customer.merchantId)))[0],
    "the customer's merchant",
  );
  assertCanTakePayments(merchant);
  const now = await objectTime(db, customer.testClockId);
  const method = await usableMethod(db, scope, customer.id, input.payment_method, now);
  const amount = input.items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0);
  const trialEnd = input.trial_days ? new Date(now.getTime() + input.trial_days * DAY_MS) : null;
  const row = await db.transaction(async (tx) => {
    const made = one(
      await tx
        .insert(subscriptions)
        .values({
          id: createId("sub"),
          isvAccountId: customer.isvAccountId,
          merchantId: customer.merchantId,
          customerId: customer.id,
          paymentMethodId: method.id,
          testClockId: customer.testClockId,
          status: trialEnd ? "trialing" : "active",
          items: input.items,
          amount,
          description: input.description ?? null,
          interval: input.interval,
          intervalCount: input.interval_count ?? 1,
          billingCycleAnchor: trialEnd ?? now,
          periodIndex: 0,
          currentPeriodStart: now,
          // Without a trial, the first period begins now: its renewal is due at once.
          currentPeriodEnd: trialEnd ?? now,
          trialEnd,
          cancelAtPeriodEnd: input.cancel_at_period_end ?? false,
          nextActionAt: trialEnd ?? now,
          metadata: input.metadata ?? {},
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
    await recordEvent(tx, {
      accountId: made.isvAccountId,
      type: "subscription.created",
      objectId: made.id,
      data: serializeSubscription(made, 0),
    });
    if (trialEnd) await scheduleStep(tx, made);
    return made;
  });
  if (trialEnd) return row;
  // The first period, charged before the answer (at the clock's time for a customer on a test clock).
  await atTime(now, () => stepSubscription(db, row.id));
  return findSubscription(db, scope, row.id);
}

/** GET /v1/subscriptions: newest first; filters `merchant_id`, `customer`, `status`. */
export async function listSubscriptions(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; customer?: string; status?: SubscriptionStatus },
) {
  const filters: SQL[] = [withinScope(subscriptions, scope)];
  if (query.merchant_id)
    filters.push(eq(subscriptions.merchantId, (await findScopedMerchant(db, scope, query.merchant_id)).id));
  if (query.customer) filters.push(eq(subscriptions.customerId, query.customer));
  if (query.status) filters.push(eq(subscriptions.status, query.status));
  return cursorPage(query, {
    noun: "subscription",
    seq: subscriptions.seq,
    filters,
    positionOf: async (cursor) => {
      const [row] = await db
        .select({ seq: subscriptions.seq })
        .from(subscriptions)
        .where(and(withinScope(subscriptions, scope), eq(subscriptions.id, cursor)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(subscriptions).where(where).orderBy(orderBy).limit(limit),
  });
}

/**
 * How many of the scope's subscriptions stand in each status, what the running ones bill a month, and
 * what dunning recovered in all (the ledger's figure, refunds deducted: lib/ledger/recovered.ts).
 */
export async function subscriptionSummary(db: DbOrTx, scope: Scope) {
  const [rows, recovered] = await Promise.all([
    db
      .select({
        status: subscriptions.status,
        count: sql<number>`count(*)::int`,
        // Each one's amount a month (a week is 52/12 of a month), rounded to the cent in exact decimals.
        monthly: sql<string>`coalesce(sum(round(${subscriptions.amount}::numeric
          * (case ${subscriptions.interval} when 'week' then 52 when 'month' then 12 else 1 end)
          / (12 * ${subscriptions.intervalCount}))), 0)::bigint`,
      })
      .from(subscriptions)
      .where(withinScope(subscriptions, scope))
      .groupBy(subscriptions.status),
    recoveredWithin(db, scope.isvAccountId, scope.merchantId),
  ]);
  const count = (status: SubscriptionStatus) => rows.find((r) => r.status === status)?.count ?? 0;
  return {
    active: count("active") + count("trialing"),
    retrying: count("past_due"),
    unpaid: count("unpaid"),
    total: rows.reduce((sum, r) => sum + r.count, 0),
    /** What the running subscriptions (active, or retrying a failed payment) bill a month, in cents. */
    monthly: ["active", "past_due"].reduce(
      (sum, st) => sum + Number(rows.find((r) => r.status === st)?.monthly ?? 0),
      0,
    ),
    recovered,
  };
}

const ended = (row: SubscriptionRow) => row.status === "canceled";

/**
 * POST /v1/subscriptions/{id}: another saved method (a past_due subscription is tried on it at
 * once), `cancel_at_period_end`, metadata. 409 once canceled.
 */
export async function updateSubscription(db: Db, scope: Scope, id: string, input: UpdateSubscriptionInput) {
  const before = await findSubscription(db, scope, id);
  if (ended(before)) throw invalidState(`The subscription ${id} is canceled: it can no longer change`);
  const now = await objectTime(db, before.testClockId);
  const method = input.payment_method
    ? await usableMethod(db, scope, before.customerId, input.payment_method, now)
    : null;
  const retryNow = Boolean(method && method.id !== before.paymentMethodId && before.status === "past_due");
  const row = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
    const current = must(locked, "the subscription");
    if (ended(current)) throw invalidState(`The subscription ${id} is canceled: it can no longer change`);
    const metadata = mergeMetadata(current.metadata, input.metadata);
    const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
    const updated = one(
      await tx
        .update(subscriptions)
        .set({
          ...(method ? { paymentMethodId: method.id } : {}),
          ...(input.cancel_at_period_end !== undefined ? { cancelAtPeriodEnd: input.cancel_at_period_end } : {}),
          ...(retryNow ? { nextActionAt: now } : {}),
          metadata,
          updatedAt: now,
        })
        .where(eq(subscriptions.id, id))
        .returning(),
    );
    if (fields.length)
      await recordEvent(tx, {
        accountId: updated.isvAccountId,
        type: "subscription.updated",
        objectId: updated.id,
        data: await subscriptionJson(tx, updated),
        fields,
      });
    return updated;
  });
  if (!retryNow) return row;
  await atTime(now, () => stepSubscription(db, row.id));
  return findSubscription(db, scope, row.id);
}

/**
 * POST /v1/subscriptions/{id}/cancel: ends now; its open invoice is canceled (nothing more is
 * charged or asked). 409 when canceled already, or while the customer is paying that invoice.
 */
export async function cancelSubscription(db: Db, scope: Scope, id: string) {
  const before = await findSubscription(db, scope, id);
  const now = await objectTime(db, before.testClockId);
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
    const current = must(locked, "the subscription");
    if (ended(current)) throw invalidState(`The subscription ${id} is canceled already`);
    return endWithInvoice(tx, current, now);
  });
}
