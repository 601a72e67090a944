import { and, asc, eq } from "drizzle-orm";

import { cursorPage } from "../../db/cursor-page";
import { one } from "../../db/one";
import type { ChargeRow, SettlementRow } from "../../db/schema";
import { charges, disputes, merchants, payouts, refunds, settlements } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import type { ListQuery } from "../../schemas/list";
import { refundsOfCharges } from "../charges/refunds-of-charges";
import { heldAmount } from "../charges/rules";
import { type Scope, withinScope } from "../scope";
import { settlementTotals } from "./totals";

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
    filters: [eq(charges.settlementId, settlement.id)],
    positionOf: async (chargeId) => {
      const [row] = await db
        .select({ seq: charges.seq })
        .from(charges)
        .where(and(eq(charges.settlementId, settlement.id), eq(charges.id, chargeId)));
      return row?.seq ?? null;
    },
    select: (where, orderBy, limit) => db.select().from(charges).where(where).orderBy(orderBy).limit(limit),
  });
  const merchant = one(await db.select().from(merchants).where(eq(merchants.id, settlement.merchantId)));
  const refunds = await refundsOfCharges(
    db,
    page.rows.map((r) => r.id),
  );
  return { ...page, merchant: merchant, refundsOf: (chargeId: string) => refunds.get(chargeId) ?? [] };
}

export type SettlementLine = {
  kind: "charge" | "refund" | "return" | "reversal" | "dispute" | "dispute_won";
  /** The charge the line is about (a refund's charge too). */
  chargeId: string;
  at: Date;
  /** What the line adds to the net (negative: taken back), in cents; a charge's fee is its own column. */
  amount: number;
  fee: number;
  card: Pick<ChargeRow, "paymentMethod" | "cardBrand" | "cardLast4" | "ach">;
};

/**
 * One settlement with every line it is made of, oldest first: the charges it settled (with their
 * fees), the refunds it carried, the ACH returns it took back and the reversed returns it paid back;
 * and the totals worked out again from those lines (lib/domain/settlements/totals.ts), which equal
 * the settlement's own: the merchant's home shows that they add up.
 */
export async function settlementWithLines(db: DbOrTx, scope: Scope, id: string) {
  const settlement = await findSettlement(db, scope, id);
  const [settled, carried, returned, reversed, disputed, won] = await Promise.all([
    db.select().from(charges).where(eq(charges.settlementId, settlement.id)).orderBy(asc(charges.seq)),
    db
      .select({ refund: refunds, charge: charges })
      .from(refunds)
      .innerJoin(charges, eq(charges.id, refunds.chargeId))
      .where(eq(refunds.settlementId, settlement.id))
      .orderBy(asc(refunds.createdAt)),
    db.select().from(charges).where(eq(charges.returnSettlementId, settlement.id)).orderBy(asc(charges.seq)),
    db.select().from(charges).where(eq(charges.reversalSettlementId, settlement.id)).orderBy(asc(charges.seq)),
    db
      .select({ dispute: disputes, charge: charges })
      .from(disputes)
      .innerJoin(charges, eq(charges.id, disputes.chargeId))
      .where(eq(disputes.settlementId, settlement.id))
      .orderBy(asc(disputes.seq)),
    db
      .select({ dispute: disputes, charge: charges })
      .from(disputes)
      .innerJoin(charges, eq(charges.id, disputes.chargeId))
      .where(eq(disputes.wonSettlementId, settlement.id))
      .orderBy(asc(disputes.seq)),
  ]);
  const card = (c: ChargeRow) => ({
    paymentMethod: c.paymentMethod,
    cardBrand: c.cardBrand,
    cardLast4: c.cardLast4,
    ach: c.ach,
  });
  const lines: SettlementLine[] = [
    ...settled.map((c) => ({
      kind: "charge" as const,
      chargeId: c.id,
      at: c.capturedAt ?? c.createdAt,
      amount: c.amountCaptured,
      fee: c.fee ?? 0,
      card: card(c),
    })),
    ...carried.map(({ refund, charge }) => ({
      kind: "refund" as const,
      chargeId: charge.id,
      at: refund.createdAt,
      amount: -refund.amount,
      fee: 0,
      card: card(charge),
    })),
    ...returned.map((c) => ({
      kind: "return" as const,
      chargeId: c.id,
      at: c.returnedAt ?? c.createdAt,
      amount: -heldAmount(c),
      fee: 0,
      card: card(c),
    })),
    ...reversed.map((c) => ({
      kind: "reversal" as const,
      chargeId: c.id,
      at: c.returnReversedAt ?? c.createdAt,
      amount: heldAmount(c),
      fee: 0,
      card: card(c),
    })),
    // A dispute takes its amount and, as its fee, the dispute fee; a won one returns the amount.
    ...disputed.map(({ dispute, charge }) => ({
      kind: "dispute" as const,
      chargeId: charge.id,
      at: dispute.createdAt,
      amount: -dispute.amount,
      fee: dispute.fee,
      card: card(charge),
    })),
    ...won.map(({ dispute, charge }) => ({
      kind: "dispute_won" as const,
      chargeId: charge.id,
      at: dispute.closedAt ?? dispute.createdAt,
      amount: dispute.amount,
      fee: 0,
      card: card(charge),
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const totals = settlementTotals({
    settled,
    carried: carried.map((r) => r.refund),
    returned,
    reversed,
    disputed: disputed.map((d) => d.dispute),
    won: won.map((d) => d.dispute),
    carriedIn: settlement.carriedIn,
  });
  // What pays its net: its payout, and a replacement when the bank refused it.
  const paidBy = await db
    .select()
    .from(payouts)
    .where(eq(payouts.settlementId, settlement.id))
    .orderBy(asc(payouts.seq));
  return { settlement, lines, totals, payouts: paidBy };
}
