import { and, asc, eq, inArray, sql } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import type { ChargeRow, SettlementRow } from "../../db/schema";
import { charges, disputes, merchants, payouts, refunds, settlements } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { sourcesTakenBy } from "../../ledger/reads";
import { settlementPostings } from "../../ledger/reads";
import { countedPostings, settlementFigures } from "../../ledger/settlement-figures";
import type { ListQuery } from "../../schemas/list";
import { withLedgerFacts } from "../charges/ledger-charge";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { merchantPayout } from "../payouts/recipient";
import { type Scope, withinScope } from "../scope";

const inScope = (scope: Scope) => withinScope(settlements, scope);

/** One settlement within the caller's scope (another account's is a 404). */
export async function findSettlement(db: DbOrTx, scope: Scope, id: string): Promise<SettlementRow> {
  const [row] = await db
    .select()
    .from(settlements)
    .where(and(eq(settlements.id, id), inScope(scope)));
  if (!row) throw notFound("settlement", id);
  return row;
}

/** GET /v1/settlements: newest first, filtered by merchant. */
export async function listSettlements(db: DbOrTx, scope: Scope, query: ListQuery & { merchant_id?: string }) {
  return cursorPage(query, {
    noun: "settlement",
    seq: settlements.seq,
    filters: [inScope(scope), ...(query.merchant_id ? [eq(settlements.merchantId, query.merchant_id)] : [])],
    positionOf: async (id) => {
      const [row] = await db
        .select({ seq: settlements.seq })
        .from(settlements)
        .where(and(inScope(scope), eq(settlements.id, id)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(settlements).where(where).orderBy(orderBy).limit(limit),
  });
}

/** GET /v1/settlements/{id}/charges: the settlement's charges, a page at a time. */
export async function listSettlementCharges(db: DbOrTx, scope: Scope, id: string, query: ListQuery) {
  const settlement = await findSettlement(db, scope, id);
  const page = await cursorPage(query, {
    noun: "charge",
    seq: charges.seq,
    filters: [sql`${charges.id} in (${sourcesTakenBy(settlement.id, "charge")})`],
    positionOf: async (chargeId) => {
      const [row] = await db
        .select({ seq: charges.seq })
        .from(charges)
        .where(and(sql`${charges.id} in (${sourcesTakenBy(settlement.id, "charge")})`, eq(charges.id, chargeId)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(charges).where(where).orderBy(orderBy).limit(limit),
  });
  const merchant = one(await db.select().from(merchants).where(eq(merchants.id, settlement.merchantId)));
  const [refunds, rowsWithNets] = await Promise.all([
    refundsOfCharges(
      db,
      page.rows.map((r) => r.id),
    ),
    withLedgerFacts(db, page.rows),
  ]);
  return {
    ...page,
    rows: rowsWithNets,
    merchant: merchant,
    refundsOf: (chargeId: string) => refunds.get(chargeId) ?? [],
  };
}

export type SettlementLine = {
  kind:
    "charge" | "refund" | "return" | "reversal" | "dispute" | "dispute_won" | "platform_fee" | "platform_fee_refund";
  /** The charge the line is about (a refund's charge too). */
  chargeId: string;
  at: Date;
  /** What the line adds to the net (negative: taken back), in cents; a charge's fee is its own column. */
  amount: number;
  fee: number;
  card: Pick<ChargeRow, "paymentMethod" | "cardBrand" | "cardLast4" | "ach">;
};

/**
 * One settlement with every line it is made of, oldest first, read from the ledger postings it took
 * (docs/reference.md section 18): the charges it settled (with their fees), the refunds it carried,
 * the ACH returns it took back and the reversed returns it paid back, the disputes (their fees as
 * the line's fee) and the won ones paid back; and the totals of those lines, which equal the
 * settlement's own: the merchant's home shows that they add up.
 */
export async function settlementWithLines(db: DbOrTx, scope: Scope, id: string) {
  const settlement = await findSettlement(db, scope, id);
  const taken = await settlementPostings(db, settlement.id);
  const counted = countedPostings(taken);
  // The charge each line is about: its own source, a refund's or a dispute's charge.
  const refundIds = counted
    .filter((p) => p.type === "refund" || p.type === "platform_fee_refund")
    .map((p) => p.sourceId);
  const disputeIds = counted.filter((p) => p.type.startsWith("dispute")).map((p) => p.sourceId);
  const [refundRows, disputeRows] = await Promise.all([
    refundIds.length
      ? db.select({ id: refunds.id, chargeId: refunds.chargeId }).from(refunds).where(inArray(refunds.id, refundIds))
      : [],
    disputeIds.length
      ? db
          .select({ id: disputes.id, chargeId: disputes.chargeId })
          .from(disputes)
          .where(inArray(disputes.id, disputeIds))
      : [],
  ]);
  const chargeOf = new Map([...refundRows, ...disputeRows].map((r) => [r.id, r.chargeId]));
  const chargeIdOf = (p: (typeof counted)[number]) =>
    p.sourceId.startsWith("ch_") ? p.sourceId : (chargeOf.get(p.sourceId) ?? p.sourceId);
  const chargeIds = [...new Set(counted.map(chargeIdOf))];
  const chargeRows = chargeIds.length ? await db.select().from(charges).where(inArray(charges.id, chargeIds)) : [];
  const chargesById = new Map(chargeRows.map((c) => [c.id, c]));
  const card = (chargeId: string) => {
    const c = chargesById.get(chargeId);
    return {
      paymentMethod: c?.paymentMethod ?? ("card" as const),
      cardBrand: c?.cardBrand ?? null,
      cardLast4: c?.cardLast4 ?? null,
      ach: c?.ach ?? null,
    };
  };
  const kinds = {
    charge: "charge",
    refund: "refund",
    ach_return: "return",
    ach_return_reversal: "reversal",
    dispute: "dispute",
    dispute_won: "dispute_won",
    platform_fee: "platform_fee",
    platform_fee_refund: "platform_fee_refund",
  } as const;
  // A dispute's fee is its line's fee (the dispute_fee posting, of the same dispute).
  const disputeFee = new Map(counted.filter((p) => p.type === "dispute_fee").map((p) => [p.sourceId, -p.amount]));
  const lines: SettlementLine[] = counted
    .filter((p) => p.type !== "dispute_fee")
    .map((p) => {
      const chargeId = chargeIdOf(p);
      return {
        kind: kinds[p.type as keyof typeof kinds],
        chargeId,
        at: p.type === "charge" ? (chargesById.get(chargeId)?.capturedAt ?? p.createdAt) : p.createdAt,
        amount: p.amount,
        fee: p.type === "charge" ? p.fee : p.type === "dispute" ? (disputeFee.get(p.sourceId) ?? 0) : 0,
        card: card(chargeId),
      };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const totals = settlementFigures(taken, settlement.carriedIn);
  // What pays its net: its payout, and a replacement when the bank refused it.
  const paidBy = await db
    .select()
    .from(payouts)
    .where(eq(payouts.settlementId, settlement.id))
    .orderBy(asc(payouts.seq));
  return { settlement, lines, totals, payouts: paidBy.map(merchantPayout) };
}
