import { and, eq, isNull } from "drizzle-orm";

import { clock } from "../../clock";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { type CustomerRow, type PaymentMethodConsent, type PaymentMethodRow, paymentMethods } from "../../db/schema";
import { merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { createId } from "../../ids";
import { businessName } from "../../merchants/facts";
import { saveConsentText } from "../../payments/save-consent";
import type { CreatePaymentMethodInput } from "../../schemas/customers";
import type { ListQuery } from "../../schemas/list";
import { serializePaymentMethod } from "../../serializers/customer";
import { recordEvent } from "../events/record-event";
import { type PaymentSource, spendToken } from "../payments/payment-source";
import { assertCanTakePayments, type Scope, withinScope } from "../scope";
import { findCustomer } from "./customers";

// A customer's saved payment methods (docs/reference.md section 21): a card or a bank account the
// customer agreed to keep, from a single-use token of the merchant's tokenizer (the number stays in
// the processor's vault; the method keeps what the vault answered). The same card saved twice for
// one customer is one method (its fingerprint): the later save renews its expiry and vault reference.

/** The method within the caller's scope (404 otherwise). */
export async function findPaymentMethod(db: DbOrTx, scope: Scope, id: string, param = "payment_method") {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(and(withinScope(paymentMethods, scope), eq(paymentMethods.id, id)));
  if (!row) throw notFound("payment_method", id, param);
  return row;
}

/**
 * Keeps a spent token's card or bank account for the customer, with the consent given, in the
 * caller's transaction; the same fingerprint already kept for the customer is that method (renewed).
 */
export async function keepMethod(
  tx: DbOrTx,
  customer: CustomerRow,
  source: PaymentSource,
  consent: PaymentMethodConsent,
) {
  const now = clock.now();
  const vaulted =
    source.kind === "bank_account"
      ? {
          type: "us_bank_account" as const,
          last4: source.last4,
          bankName: source.bankName,
          accountType: source.accountType,
          routingNumber: source.routingNumber,
        }
      : {
          type: "card" as const,
          brand: source.brand,
          last4: source.last4,
          expMonth: source.expMonth,
          expYear: source.expYear,
          funding: source.funding,
        };
  const [made] = await tx
    .insert(paymentMethods)
    .values({
      id: createId("pm"),
      isvAccountId: customer.isvAccountId,
      merchantId: customer.merchantId,
      customerId: customer.id,
      ...vaulted,
      fingerprint: source.fingerprint,
      vault: source.vault,
      consent,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await recordEvent(tx, {
      accountId: made.isvAccountId,
      type: "payment_method.attached",
      objectId: made.id,
      data: serializePaymentMethod(made, now),
    });
    return made;
  }
  // Kept already: the newer token's expiry and vault reference, the latest consent.
  return one(
    await tx
      .update(paymentMethods)
      .set({ ...vaulted, vault: source.vault, consent, updatedAt: now })
      .where(
        and(
          eq(paymentMethods.customerId, customer.id),
          eq(paymentMethods.fingerprint, source.fingerprint),
          isNull(paymentMethods.detachedAt),
        ),
      )
      .returning(),
  );
}

/** POST /v1/payment_methods `{ token, customer, consent }`: the token spent, the method kept (or the same card's). */
export async function createPaymentMethod(
  db: Db,
  scope: Scope,
  input: CreatePaymentMethodInput,
  context: { clientAddress: string | null },
) {
  const customer = await findCustomer(db, scope, input.customer);
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, customer.merchantId));
  if (!merchant) throw notFound("customer", input.customer, "customer");
  assertCanTakePayments(merchant);
  return db.transaction(async (tx) => {
    const source = await spendToken(tx, input.token, customer.merchantId);
    const locale = input.consent.locale ?? "en";
    const kind = source.kind === "bank_account" ? "bank_account" : "card";
    return keepMethod(tx, customer, source, {
      text: input.consent.text ?? saveConsentText(locale, businessName(merchant), kind),
      locale,
      accepted_at: clock.now().toISOString(),
      ip_address: context.clientAddress,
      source: "api",
    });
  });
}

/** POST /v1/payment_methods/{id}/detach: no longer the customer's; charging it is refused from then on. */
export async function detachPaymentMethod(db: Db, scope: Scope, id: string) {
  return db.transaction(async (tx) => {
    const before = await findPaymentMethod(tx, scope, id, "payment_method_id");
    if (before.detachedAt) throw new AppError("invalid_state", `The payment method ${id} is detached already`);
    const now = clock.now();
    const row = one(
      await tx
        .update(paymentMethods)
        .set({ detachedAt: now, updatedAt: now })
        .where(eq(paymentMethods.id, before.id))
        .returning(),
    );
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "payment_method.detached",
      objectId: row.id,
      data: serializePaymentMethod(row, now),
    });
    return row;
  });
}

/** GET /v1/payment_methods?customer=: the customer's methods (detached ones left out), newest first. */
export async function listPaymentMethods(db: DbOrTx, scope: Scope, query: ListQuery & { customer: string }) {
  const customer = await findCustomer(db, scope, query.customer);
  return cursorPage<PaymentMethodRow>(query, {
    noun: "payment method",
    seq: paymentMethods.seq,
    filters: [eq(paymentMethods.customerId, customer.id), isNull(paymentMethods.detachedAt)],
    positionOf: async (cursor) => {
      const [row] = await db
        .select({ seq: paymentMethods.seq })
        .from(paymentMethods)
        .where(and(eq(paymentMethods.customerId, customer.id), eq(paymentMethods.id, cursor)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(paymentMethods).where(where).orderBy(orderBy).limit(limit),
  });
}
