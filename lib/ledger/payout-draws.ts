import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { type DbOrTx } from "../db/types";
import { balanceOf } from "./balances";

// What a merchant's payouts draw on (docs/reference.md section 18): its `available` balance. A payout
// is posted out of `available` only when it is sent, so a payout made and not sent yet (pending or
// held), and a failed one whose money came back for a replacement not made yet, are promised out of
// what `available` holds. What is left is what the next payout may draw.

/**
 * SQL: the sum of the merchant payouts (of `merchant`, an SQL expression naming the merchant's id)
 * promised out of `available`: made and not posted (pending, held; an older release posted a payout
 * when it was made, and that one is not counted), or failed with no replacement yet.
 */
export const promisedPayouts = (merchant: ReturnType<typeof sql>) => sql`(
  select coalesce(sum(po.amount), 0) from payouts po
  where po.merchant_id = ${merchant} and po.recipient = 'merchant' and (
    (po.status in ('pending', 'held')
      and not exists (select 1 from ledger_postings p where p.source_id = po.id and p.type = 'payout'))
    or (po.status = 'failed' and not exists (select 1 from payouts r where r.replaces = po.id))))`;

/**
 * What the merchant's next payout may draw, in cents: its `available` balance less the payouts
 * promised out of it. Right after a settlement that made a payout it is 0; after one whose net was
 * negative, that net (carried into the next settlement). Read in the transaction that makes the
 * payout, the merchant's row locked, so two payouts never draw the same cents.
 */
export async function drawableOf(db: DbOrTx, merchantId: string): Promise<number> {
  const { available } = await balanceOf(db, merchantId);
  const [row] = rowsOf<{ promised: string | number }>(
    await db.execute(sql`select ${promisedPayouts(sql`${merchantId}`)} as promised`),
  );
  return available - Number(row?.promised ?? 0);
}
