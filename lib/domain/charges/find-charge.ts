import { and, eq } from "drizzle-orm";

import { one } from "../../db/one";
import type { ChargeRow } from "../../db/schema";
import { charges, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { type Scope, withinScope } from "../scope";
import { withLedgerFact } from "./ledger-charge";
import { refundsOfCharges } from "./refunds-of-charges";

/** One charge within the caller's scope (another account's is a 404). */
export async function findCharge(db: DbOrTx, scope: Scope, id: string): Promise<ChargeRow> {
  const [row] = await db
    .select()
    .from(charges)
    .where(and(eq(charges.id, id), withinScope(charges, scope)));
  if (!row) throw notFound("charge", id);
  return row;
}

/** GET /v1/charges/{id}: the charge within the caller's scope, with what its serializer needs (its merchant, its refunds). */
export async function getCharge(db: DbOrTx, scope: Scope, id: string) {
  const charge = await withLedgerFact(db, await findCharge(db, scope, id));
  const merchant = one(await db.select().from(merchants).where(eq(merchants.id, charge.merchantId)));
  const refunds = (await refundsOfCharges(db, [charge.id])).get(charge.id);
  return { charge, merchant: merchant, refunds };
}
