import { and, desc, eq, inArray, sql } from "drizzle-orm";

import { customers, type MerchantRow, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";

// What the ISV dashboard's Customers page (app/(dashboard)/dashboard/customers) reads besides the
// lists themselves: which merchants bill customers, and the names of the rows' customers and merchants.

/** The ISV's merchants with a customer or a payment link (the page's merchant filter), newest first. */
export function recurringMerchants(db: DbOrTx, isvAccountId: string): Promise<MerchantRow[]> {
  return db
    .select()
    .from(merchants)
    .where(
      and(
        eq(merchants.isvAccountId, isvAccountId),
        sql`(exists (select 1 from customers c where c.merchant_id = ${merchants.id} and c.deleted_at is null)
          or exists (select 1 from payment_links l where l.merchant_id = ${merchants.id}))`,
      ),
    )
    .orderBy(desc(merchants.createdAt))
    .limit(200);
}

/** The ISV's merchants of these ids, by id (a deleted customer's name is kept for its subscriptions). */
export async function merchantsById(db: DbOrTx, isvAccountId: string, ids: readonly string[]) {
  const rows = ids.length
    ? await db
        .select()
        .from(merchants)
        .where(and(eq(merchants.isvAccountId, isvAccountId), inArray(merchants.id, [...new Set(ids)])))
    : [];
  return new Map(rows.map((m) => [m.id, m]));
}

/** The ISV's customers of these ids (deleted ones too: their subscriptions still name them), by id. */
export async function customersById(db: DbOrTx, isvAccountId: string, ids: readonly string[]) {
  const rows = ids.length
    ? await db
        .select({ id: customers.id, name: customers.name, email: customers.email })
        .from(customers)
        .where(and(eq(customers.isvAccountId, isvAccountId), inArray(customers.id, [...new Set(ids)])))
    : [];
  return new Map(rows.map((c) => [c.id, c]));
}
