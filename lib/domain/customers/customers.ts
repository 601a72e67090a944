import { and, eq, isNull, ne, type SQL, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import { type CustomerRow, customers, paymentMethods, subscriptions } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { invalid, notFound } from "../../errors";
import { createId } from "../../ids";
import type { CreateCustomerInput, UpdateCustomerInput } from "../../schemas/customers";
import type { ListQuery } from "../../schemas/list";
import { serializeCustomer } from "../../serializers/customer";
import { recordEvent } from "../events/record-event";
import { isRealPhone, normalizePhone } from "../merchants/application";
import { mergeMetadata } from "../metadata";
import { findScopedMerchant, type Scope, withinScope } from "../scope";
import { endWithInvoice } from "../subscriptions/schedule";
import { findTestClock } from "../test-clocks/find-test-clock";
import { objectTime } from "../test-clocks/object-time";

// A merchant's customers (docs/reference.md section 21): who pays the merchant again and again, with
// the methods they agreed to keep. Deleting a customer detaches its methods; its charges stay.

const live = (scope: Scope) => and(withinScope(customers, scope), isNull(customers.deletedAt));

/** The phone as kept (E.164), or a 400 naming it when it cannot be a real number. */
function phoneOf(phone: string | null | undefined) {
  if (phone === undefined || phone === null) return phone;
  if (!isRealPhone(phone))
    throw invalid("phone", "phone must be a real phone number in E.164 (+14155550123) or a 10-digit US number");
  return normalizePhone(phone);
}

/** The customer within the caller's scope, not deleted (404 otherwise, whoever's it is). */
export async function findCustomer(db: DbOrTx, scope: Scope, id: string, param = "customer"): Promise<CustomerRow> {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(live(scope), eq(customers.id, id)));
  if (!row) throw notFound("customer", id, param);
  return row;
}

/** The customer with this id unless deleted, whoever's it is (a public pay page's request names it); null otherwise. */
export async function liveCustomer(db: DbOrTx, id: string | null): Promise<CustomerRow | null> {
  if (!id) return null;
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), isNull(customers.deletedAt)));
  return row ?? null;
}

/** POST /v1/customers. */
export async function createCustomer(db: Db, scope: Scope, input: CreateCustomerInput) {
  const merchant = await findScopedMerchant(db, scope, input.merchant_id);
  const phone = phoneOf(input.phone);
  // Sandbox: the customer lives at its test clock's time (another account's clock is no such clock).
  const testClock = input.test_clock ? await findTestClock(db, scope, input.test_clock, "test_clock") : null;
  const createdAt = await objectTime(db, testClock?.id ?? null);
  return db.transaction(async (tx) => {
    const row = one(
      await tx
        .insert(customers)
        .values({
          id: createId("cus"),
          isvAccountId: merchant.isvAccountId,
          merchantId: merchant.id,
          name: input.name ?? null,
          email: input.email ?? null,
          phone: phone ?? null,
          metadata: input.metadata ?? {},
          testClockId: testClock?.id ?? null,
          createdAt,
        })
        .returning(),
    );
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "customer.created",
      objectId: row.id,
      data: serializeCustomer(row),
    });
    return row;
  });
}

/** POST /v1/customers/{id}: the fields given change (null clears one); metadata merges, "" removes a key. */
export async function updateCustomer(db: Db, scope: Scope, id: string, input: UpdateCustomerInput) {
  const phone = phoneOf(input.phone);
  return db.transaction(async (tx) => {
    const before = await findCustomer(tx, scope, id, "customer_id");
    const metadata = mergeMetadata(before.metadata, input.metadata);
    const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
    const row = one(
      await tx
        .update(customers)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...(phone !== undefined ? { phone } : {}),
          metadata,
        })
        .where(eq(customers.id, before.id))
        .returning(),
    );
    if (fields.length)
      await recordEvent(tx, {
        accountId: row.isvAccountId,
        type: "customer.updated",
        objectId: row.id,
        data: serializeCustomer(row),
        fields,
      });
    return row;
  });
}

/** DELETE /v1/customers/{id}: gone from every list and lookup; its saved methods are detached with it. */
export async function deleteCustomer(db: Db, scope: Scope, id: string) {
  return db.transaction(async (tx) => {
    const before = await findCustomer(tx, scope, id, "customer_id");
    const now = clock.now();
    await tx
      .update(paymentMethods)
      .set({ detachedAt: now, updatedAt: now })
      .where(and(eq(paymentMethods.customerId, before.id), isNull(paymentMethods.detachedAt)));
    // Its subscriptions end with it (their open invoices canceled): nothing is billed to nobody.
    const billing = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.customerId, before.id), ne(subscriptions.status, "canceled")))
      .for("update");
    for (const sub of billing) await endWithInvoice(tx, sub, now);
    const row = one(await tx.update(customers).set({ deletedAt: now }).where(eq(customers.id, before.id)).returning());
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "customer.deleted",
      objectId: row.id,
      data: serializeCustomer(row),
    });
    return { object: "customer" as const, id: row.id, deleted: true as const };
  });
}

/** GET /v1/customers: newest first; filters `merchant_id` and `email` (exact, any case). */
export async function listCustomers(
  db: DbOrTx,
  scope: Scope,
  query: ListQuery & {
    merchant_id?: string;
    email?: string;
    /** The home's search: in the name or the address, any case. */ search?: string;
  },
) {
  const filters: SQL[] = [live(scope) as SQL];
  if (query.merchant_id)
    filters.push(eq(customers.merchantId, (await findScopedMerchant(db, scope, query.merchant_id)).id));
  if (query.email) filters.push(sql`lower(${customers.email}) = ${query.email.trim().toLowerCase()}`);
  const words = query.search?.trim().toLowerCase();
  if (words) {
    const like = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(sql`(lower(${customers.name}) like ${like} or lower(${customers.email}) like ${like})`);
  }
  return cursorPage(query, {
    noun: "customer",
    seq: customers.seq,
    filters,
    positionOf: async (cursor) => {
      const [row] = await db
        .select({ seq: customers.seq })
        .from(customers)
        .where(and(withinScope(customers, scope), eq(customers.id, cursor)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(customers).where(where).orderBy(orderBy).limit(limit),
  });
}
