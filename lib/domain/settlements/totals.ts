import type { ChargeRow, DisputeRow, RefundRow } from "../../db/schema";
import { heldAmount } from "../charges/rules";

/**
 * A settlement's figures from what it took (docs/reference.md section 13), in cents: the charges it
 * settles (captured, less their fees), the refunds it carries, the ACH returns it takes back and the
 * reversed returns it pays back. A return takes back what the merchant still held of the charge (its
 * capture less its refunds: those were already taken back), and a reversal pays back the same. A
 * negative net of the settlement before (`carriedIn`, <= 0) is taken from this one: no payout pays
 * a negative amount, and nothing owed is forgotten. A dispute opened since the last settlement takes
 * its amount (what the customer still paid: ../disputes/rules.ts disputedAmount) and its fee; a won
 * dispute, taken before, returns its amount (the fee stays taken).
 */
export function settlementTotals(took: {
  carriedIn?: number;
  settled: Pick<ChargeRow, "amountCaptured" | "fee">[];
  carried: Pick<RefundRow, "amount">[];
  returned: Pick<ChargeRow, "amountCaptured" | "amountRefunded">[];
  reversed: Pick<ChargeRow, "amountCaptured" | "amountRefunded">[];
  disputed?: Pick<DisputeRow, "amount" | "fee">[];
  won?: Pick<DisputeRow, "amount">[];
}) {
  const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);
  const gross = sum(took.settled, (c) => c.amountCaptured);
  const fees = sum(took.settled, (c) => c.fee ?? 0);
  const refunds = sum(took.carried, (r) => r.amount);
  const returns = sum(took.returned, heldAmount);
  const reversals = sum(took.reversed, heldAmount);
  const disputed = took.disputed ?? [];
  const won = took.won ?? [];
  const disputes = sum(disputed, (d) => d.amount);
  const disputeFees = sum(disputed, (d) => d.fee);
  const disputesWon = sum(won, (d) => d.amount);
  return {
    chargeCount: took.settled.length,
    gross,
    fees,
    refundCount: took.carried.length,
    refunds,
    returnCount: took.returned.length,
    returns,
    reversalCount: took.reversed.length,
    reversals,
    disputeCount: disputed.length,
    disputes,
    disputeFees,
    disputeWonCount: won.length,
    disputesWon,
    carriedIn: took.carriedIn ?? 0,
    net: gross - refunds - returns + reversals - fees - disputes - disputeFees + disputesWon + (took.carriedIn ?? 0),
  };
}
