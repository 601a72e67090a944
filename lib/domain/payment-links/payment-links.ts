import { and, eq, type SQL, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { merchants, type PaymentLinkRow, paymentLinks, type PaymentRequestRow } from "../../db/schema";
import { type Db, type DbOrTx, type Tx } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import { businessName } from "../../merchants/facts";
import type { ListQuery } from "../../schemas/list";
import { MAX_TOTAL } from "../../schemas/money-fields";
import type { CreatePaymentLinkInput, UpdatePaymentLinkInput } from "../../schemas/payment-links";
import { mergeMetadata } from "../metadata";
import { createScopedPaymentRequest } from "../payments/create-payment-request";
import { assertCanTakePayments, canTakePayments, findScopedMerchant, type Scope, withinScope } from "../scope";

// Payment links (docs/reference.md section 21): a reusable URL whose every visit makes a payment
// request and sends the customer to its pay page. A link takes payments while it is active, before
// its `expires_at`, below its `max_uses`, and while its merchant may take payments.

/** Minutes a visit's payment request stays payable (a customer is on its page now). */
const VISIT_REQUEST_MINUTES = 60;
/** The least a customer may choose when the link does not say. */
const DEFAULT_MIN = 100;

export async function findPaymentLink(db: DbOrTx, scope: Scope, id: string, param = "payment_link_id") {
  const [row] = await db
    .select()
    .from(paymentLinks)
    .where(and(withinScope(paymentLinks, scope), eq(paymentLinks.id, id)));
  if (!row) throw notFound("payment_link", id, param);
  return row;
}

/** POST /v1/payment_links. */
export async function createPaymentLink(db: Db, scope: Scope, input: CreatePaymentLinkInput) {
  const merchant = await findScopedMerchant(db, scope, input.merchant_id);
  assertCanTakePayments(merchant);
  const now = clock.now();
  if (input.expires_at !== undefined && input.expires_at <= now.getTime())
    throw invalid("expires_at", "expires_at must be in the future");
  const chooses = input.customer_chooses_amount;
  return one(
    await db
      .insert(paymentLinks)
      .values({
        id: createId("plink"),
        isvAccountId: merchant.isvAccountId,
        merchantId: merchant.id,
        amount: input.amount ?? null,
        items: input.items ?? null,
        minAmount: chooses ? (chooses.min ?? Math.min(DEFAULT_MIN, chooses.max ?? DEFAULT_MIN)) : null,
        maxAmount: chooses ? (chooses.max ?? MAX_TOTAL) : null,
        description: input.description ?? null,
        maxUses: input.max_uses ?? null,
        expiresAt: input.expires_at !== undefined ? new Date(input.expires_at) : null,
        metadata: input.metadata ?? {},
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
}

/** GET /v1/payment_links: newest first; filters `merchant_id`, `active`. */
export async function listPaymentLinks(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & { merchant_id?: string; active?: "true" | "false" },
) {
  const filters: SQL[] = [withinScope(paymentLinks, scope)];
  if (query.merchant_id)
    filters.push(eq(paymentLinks.merchantId, (await findScopedMerchant(db, scope, query.merchant_id)).id));
  if (query.active) filters.push(eq(paymentLinks.active, query.active === "true"));
  return cursorPage(query, {
    noun: "payment link",
    seq: paymentLinks.seq,
    filters,
    positionOf: async (cursor) => {
      const [row] = await db
        .select({ seq: paymentLinks.seq })
        .from(paymentLinks)
        .where(and(withinScope(paymentLinks, scope), eq(paymentLinks.id, cursor)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(paymentLinks).where(where).orderBy(orderBy).limit(limit),
  });
}

/** POST /v1/payment_links/{id} `{ active?, metadata? }`. A link used up stays off. */
export async function updatePaymentLink(db: Db, scope: Scope, id: string, input: UpdatePaymentLinkInput) {
  const before = await findPaymentLink(db, scope, id);
  if (input.active && before.maxUses !== null && before.paidCount >= before.maxUses)
    throw new AppError("invalid_state", `The payment link ${id} took its ${before.maxUses} payments: make a new one`);
  const metadata = mergeMetadata(before.metadata, input.metadata);
  return one(
    await db
      .update(paymentLinks)
      .set({ ...(input.active !== undefined ? { active: input.active } : {}), metadata, updatedAt: clock.now() })
      .where(eq(paymentLinks.id, before.id))
      .returning(),
  );
}

export type LinkVisit =
  | { kind: "pay"; request: PaymentRequestRow }
  | { kind: "choose"; link: PaymentLinkRow; isvAccountId: string; business: string; error?: "out_of_range" }
  | { kind: "unavailable"; reason: "unknown" | "off"; isvAccountId?: string; business?: string };

/** A link by its id alone (its URL and QR code are public; the id is unguessable), or 404. */
export async function publicPaymentLink(db: DbOrTx, id: string) {
  const [row] = await db.select().from(paymentLinks).where(eq(paymentLinks.id, id));
  if (!row) throw notFound("payment_link", id, "payment_link_id");
  return row;
}

/**
 * A visit of the link's URL (public): a payment request for the link's amount (or the amount the
 * customer chose, in cents, within the link's range), or what the page must show instead.
 */
export async function visitPaymentLink(db: Db, id: string, chosen?: number): Promise<LinkVisit> {
  const [link] = await db.select().from(paymentLinks).where(eq(paymentLinks.id, id));
  if (!link) return { kind: "unavailable", reason: "unknown" };
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, link.merchantId));
  const business = merchant ? businessName(merchant) : "";
  const isvAccountId = link.isvAccountId;
  const off =
    !link.active ||
    (link.expiresAt !== null && link.expiresAt <= clock.now()) ||
    (link.maxUses !== null && link.paidCount >= link.maxUses) ||
    !merchant ||
    !canTakePayments(merchant);
  if (off) return { kind: "unavailable", reason: "off", isvAccountId, business };
  if (link.minAmount !== null) {
    if (chosen === undefined) return { kind: "choose", link, isvAccountId, business };
    if (chosen < link.minAmount || chosen > (link.maxAmount ?? MAX_TOTAL))
      return { kind: "choose", link, isvAccountId, business, error: "out_of_range" };
  }
  const amounts = link.items ? { items: link.items } : { amount: link.amount ?? chosen ?? 0 };
  const { row } = await createScopedPaymentRequest(
    db,
    { isvAccountId: link.isvAccountId },
    { type: "SCAN_TO_PAY", merchant_id: link.merchantId, ...amounts },
    { paymentLinkId: link.id, expiresAt: new Date(clock.ms() + VISIT_REQUEST_MINUTES * 60_000) },
  );
  return { kind: "pay", request: row };
}

/** In the payment's transaction: one more payment through the link; at `max_uses` it turns itself off. */
export async function paymentLinkPaid(tx: Tx, request: PaymentRequestRow) {
  if (!request.paymentLinkId) return;
  await tx
    .update(paymentLinks)
    .set({
      paidCount: sql`${paymentLinks.paidCount} + 1`,
      active: sql`${paymentLinks.active} and (${paymentLinks.maxUses} is null or ${paymentLinks.paidCount} + 1 < ${paymentLinks.maxUses})`,
      updatedAt: clock.now(),
    })
    .where(eq(paymentLinks.id, request.paymentLinkId));
}
