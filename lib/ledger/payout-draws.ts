import { sql } from "drizzle-orm";

import { rowsOf } from "../db/client";
import { type DbOrTx } from "../db/types";
import { balanceOf } from "./balances";
import { notPayoutLineTypes, unsettledPayoutLineTypes } from "./payout-movements";

// What a merchant's payouts draw on (docs/reference.md section 18): its `available` balance. A payout
// is posted out of `available` only when it is sent, so a payout made and not sent yet (pending or
// held), and a failed one whose money came back for a replacement not made yet, are promised out of
// what `available` holds. What is left is what the next payout may draw.

/**
 * SQL: the sum of the merchant payouts (of `merchant`, an SQL expression naming the merchant's id)
 * promised out of `available`: made and not posted (pending, held; an older release posted a payout
 * when it was made, and that one is not counted), or sent, failed and not replaced yet (an instant
 * payout the rail refused before it was sent never left: it promises nothing).
 */
export const promisedPayouts = (merchant: ReturnType<typeof sql>) => sql`(
  select coalesce(sum(po.amount), 0) from payouts po
  where po.merchant_id = ${merchant} and po.recipient = 'merchant' and (
    (po.status in ('pending', 'held')
      and not exists (select 1 from ledger_postings p where p.source_id = po.id and p.type = 'payout'))
    or (po.status = 'failed' and not exists (select 1 from payouts r where r.replaces = po.id)
      and exists (select 1 from ledger_postings p where p.source_id = po.id and p.type = 'payout'))))`;

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

const lineTypes = sql.raw(notPayoutLineTypes.map((t) => `'${t}'`).join(", "));
const unsettledLineTypes = sql.raw(`(${unsettledPayoutLineTypes.map((t) => `'${t}'`).join(", ")})`);

/**
 * SQL: what the next automatic payout of `merchant` takes as its lines, summed: its settled postings
 * no payout took yet, the `payout` postings of the manual payouts sent since the last one, and the
 * reserves' holds and releases since (../ledger/payout-movements.ts takePayoutLines). The ledger check holds it equal to what the next
 * payout may draw, less the manual payouts not sent yet.
 */
export const unpaidLines = (merchant: ReturnType<typeof sql>) => sql`(
  select coalesce(sum(p.net), 0) from ledger_postings p
  where p.merchant_id = ${merchant} and p.payout_id is null
    and ((p.settlement_id is not null and p.type not in (${lineTypes})) or p.type in ${unsettledLineTypes}))`;

/** SQL: the manual payouts of `merchant` made and not sent yet (their `payout` posting not written). */
export const unsentManualPayouts = (merchant: ReturnType<typeof sql>) => sql`(
  select coalesce(sum(po.amount), 0) from payouts po
  where po.merchant_id = ${merchant} and po.recipient = 'merchant' and not po.automatic and po.replaces is null
    and po.status in ('pending', 'held')
    and not exists (select 1 from ledger_postings p where p.source_id = po.id and p.type = 'payout'))`;

/**
 * Whether a manual payout of the merchant waits to be sent: an automatic payout is not made until it
 * is (its posting, a line of the automatic payout, is written when it is sent).
 */
export async function manualPayoutWaits(db: DbOrTx, merchantId: string): Promise<boolean> {
  const [row] = rowsOf<{ waiting: string | number }>(
    await db.execute(sql`select ${unsentManualPayouts(sql`${merchantId}`)} as waiting`),
  );
  return Number(row?.waiting ?? 0) > 0;
}

/**
 * A query of the merchants (`merchant_id`) with something an automatic payout would take (of one
 * ISV or merchant, or all): the payout run looks at these, and no other.
 */
export function merchantsWithUnpaidLines(owner: { isvAccountId?: string; merchantId?: string }) {
  return sql`select distinct p.merchant_id from ledger_postings p
    where p.merchant_id is not null and p.payout_id is null
      and ((p.settlement_id is not null and p.type not in (${lineTypes})) or p.type in ${unsettledLineTypes})
      ${owner.isvAccountId ? sql`and p.isv_account_id = ${owner.isvAccountId}` : sql``}
      ${owner.merchantId ? sql`and p.merchant_id = ${owner.merchantId}` : sql``}
    order by 1`;
}
