import { and, asc, inArray } from "drizzle-orm";

import { ledgerPostings, type ReserveRow } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { post } from "./post";

// A reserve's movements (docs/reference.md section 20): a hold moves money from the merchant's
// `available` to its `reserved`, a release back. Their net is what `available` gained (a hold's is
// negative), so the next automatic payout, which takes them as lines, is changed by exactly that.

const day = (at: Date) => at.toISOString().slice(0, 10);

/** Holds `amount` cents (> 0) for the reserve, at `at`. */
export function postReserveHold(tx: DbOrTx, reserve: ReserveRow, amount: number, at: Date, why: string) {
  return post(tx, {
    isvAccountId: reserve.isvAccountId,
    merchantId: reserve.merchantId,
    type: "reserve_hold",
    sourceId: reserve.id,
    amount: -amount,
    description: `Held: ${why}`,
    createdAt: at,
    availableOn: day(at),
    entries: [
      { account: "available", owner: reserve.merchantId, amount: -amount },
      { account: "reserved", owner: reserve.merchantId, amount },
    ],
  });
}

/** Gives `amount` cents (> 0) of the reserve back to `available`, at `at`. */
export function postReserveRelease(tx: DbOrTx, reserve: ReserveRow, amount: number, at: Date, why: string) {
  return post(tx, {
    isvAccountId: reserve.isvAccountId,
    merchantId: reserve.merchantId,
    type: "reserve_release",
    sourceId: reserve.id,
    amount,
    description: `Released: ${why}`,
    createdAt: at,
    availableOn: day(at),
    entries: [
      { account: "reserved", owner: reserve.merchantId, amount: -amount },
      { account: "available", owner: reserve.merchantId, amount },
    ],
  });
}

/** One hold of a reserve, and what of it is still held (holds are given back oldest first). */
export type ReserveHold = { amount: number; at: Date; left: number };
export type ReserveLedger = { held: number; released: number; holds: ReserveHold[] };

/** What each reserve held and gave back, read from its postings (a reserve with none: nothing). */
export async function reserveLedgers(db: DbOrTx, reserveIds: string[]): Promise<Map<string, ReserveLedger>> {
  const result = new Map<string, ReserveLedger>(reserveIds.map((id) => [id, { held: 0, released: 0, holds: [] }]));
  if (reserveIds.length === 0) return result;
  const rows = await db
    .select({
      sourceId: ledgerPostings.sourceId,
      type: ledgerPostings.type,
      net: ledgerPostings.net,
      createdAt: ledgerPostings.createdAt,
    })
    .from(ledgerPostings)
    .where(
      and(
        inArray(ledgerPostings.sourceId, reserveIds),
        inArray(ledgerPostings.type, ["reserve_hold", "reserve_release"]),
      ),
    )
    .orderBy(asc(ledgerPostings.seq));
  for (const row of rows) {
    const ledger = result.get(row.sourceId);
    if (!ledger) continue;
    if (row.type === "reserve_hold") ledger.holds.push({ amount: -row.net, at: row.createdAt, left: -row.net });
    else ledger.released += row.net;
  }
  for (const ledger of result.values()) {
    const total = ledger.holds.reduce((sum, h) => sum + h.amount, 0);
    ledger.held = total - ledger.released;
    // Oldest first: what was given back came out of the oldest holds.
    let given = ledger.released;
    for (const hold of ledger.holds) {
      const out = Math.min(hold.left, given);
      hold.left -= out;
      given -= out;
    }
  }
  return result;
}
