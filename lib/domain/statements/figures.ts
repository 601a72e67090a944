import {
  type ChargeRow,
  type DisputeRow,
  type LedgerPostingRow,
  type RefundRow,
  type StatementBrand,
  type StatementDay,
  type StatementDispute,
  type StatementFeeLine,
  type StatementItem,
} from "../../db/schema";
import { invalid } from "../../errors";
import { postingSums } from "../../ledger/settlement-figures";
import { activityPostingTypes, type PostingType } from "../../schemas/ledger-values";
import { type MonthEndActivity } from "../fees/month-end-fees";

// A statement's figures without a database (docs/reference.md sections 11 and 13): the month's
// bounds, and from the month's activity every total, fee line, brand, day and item.
// ./generate-statement.ts reads the activity and keeps the snapshot.

/** A calendar month `YYYY-MM` as the UTC instants it starts and ends at. */
export function periodRange(period: string) {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period);
  if (!match) throw invalid("period", "period must be a month written YYYY-MM");
  const year = Number(match[1]);
  const month = Number(match[2]) - 1;
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

export const periodOf = (date: Date) => date.toISOString().slice(0, 7);

/** One of the month's ledger postings (docs/reference.md section 18), by its `created_at`. */
export type StatementPosting = Pick<
  LedgerPostingRow,
  "id" | "type" | "sourceId" | "amount" | "fee" | "net" | "createdAt"
>;

/**
 * What happened in a merchant's month, as the ledger wrote it: its postings of the month (charges,
 * refunds, ACH returns and reversals, disputes, their fees and the won ones), and the objects they
 * come from (what a line says beyond its money: card brand, fee details, reason).
 */
export type MonthActivity = {
  postings: readonly StatementPosting[];
  charges: ReadonlyMap<string, ChargeRow>;
  refunds: ReadonlyMap<string, RefundRow>;
  disputes: ReadonlyMap<string, DisputeRow>;
};

/** The posting types a statement adds up (the month's activity; settlements, payouts and the month-end fees are not lines). */
export const statementPostingTypes = activityPostingTypes;

/**
 * The month's disputes as the statement lists them: each opened or won in the month, once, oldest
 * first, with whether its amount was taken in the month and whether it came back in it.
 */
function statementDisputes(opened: DisputeRow[], won: DisputeRow[]): StatementDispute[] {
  const byId = new Map<string, DisputeRow>();
  for (const d of [...opened, ...won]) byId.set(d.id, d);
  const wonIds = new Set(won.map((d) => d.id));
  const openedIds = new Set(opened.map((d) => d.id));
  return [...byId.values()]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map((d) => ({
      id: d.id,
      charge_id: d.chargeId,
      created_at: d.createdAt.toISOString(),
      reason: d.reason,
      status: d.status,
      amount: d.amount,
      fee: d.fee,
      closed_at: d.closedAt?.toISOString() ?? null,
      opened_in_period: openedIds.has(d.id),
      won_in_period: wonIds.has(d.id),
    }));
}

/** The object a posting comes from, which the month's activity must hold. */
function sourceOf<T>(map: ReadonlyMap<string, T>, posting: StatementPosting): T {
  const row = map.get(posting.sourceId);
  if (!row) throw new Error(`The statement has no ${posting.sourceId} for its posting ${posting.id}`);
  return row;
}

/** What the month did that its month-end fees are charged on (lib/domain/fees/month-end-fees.ts). */
export function monthEndActivity(month: MonthActivity): MonthEndActivity {
  const count = (type: PostingType) => month.postings.filter((p) => p.type === type).length;
  const achDays = new Set(
    month.postings
      .filter((p) => p.type === "charge" && sourceOf(month.charges, p).paymentMethod === "ach")
      .map((p) => p.createdAt.toISOString().slice(0, 10)),
  ).size;
  return {
    achDays,
    returnCount: count("ach_return"),
    reversalCount: count("ach_return_reversal"),
    processingFees: postingSums(month.postings).processingFees,
  };
}

/**
 * The statement's figures, in cents, read from the month's ledger postings: every total is a sum of
 * their amounts and fees; the month-end fees (ACH activity and monthly fees: the month's bill, or for
 * a preview what its bill would be) are added as lines and taken from the net.
 */
export function statementFigures(month: MonthActivity, monthEnd: readonly StatementFeeLine[]) {
  const of = (type: PostingType) => month.postings.filter((p) => p.type === type);
  // Every total is the ledger's one definition (lib/ledger/settlement-figures.ts postingSums).
  const sums = postingSums(month.postings);
  const chargePostings = of("charge");
  const refundPostings = of("refund");
  const returnPostings = of("ach_return");
  const reversalPostings = of("ach_return_reversal");
  const disputePostings = of("dispute");
  const wonPostings = of("dispute_won");
  const chargeOf = (p: StatementPosting) => sourceOf(month.charges, p);

  // Processing fees by model and line, as each charge's fee_details said.
  const byLine = new Map<string, StatementFeeLine>();
  for (const posting of chargePostings) {
    for (const line of chargeOf(posting).feeDetails ?? []) {
      const key = `${line.model}|${line.description}`;
      const entry = byLine.get(key) ?? {
        kind: "processing" as const,
        model: line.model,
        description: line.description,
        count: 0,
        amount: 0,
      };
      entry.count += 1;
      entry.amount += line.amount;
      byLine.set(key, entry);
    }
  }
  const feeLines = [...byLine.values()];
  feeLines.push(...monthEnd.filter((l) => l.kind === "ach_activity"));
  if (disputePostings.length > 0)
    feeLines.push({
      kind: "dispute",
      model: "dispute",
      description: "Dispute fee",
      count: sums.disputeCount,
      amount: sums.disputeFees,
    });
  feeLines.push(...monthEnd.filter((l) => l.kind === "monthly"));
  const fees = feeLines.reduce((s, l) => s + l.amount, 0);

  const brands = new Map<string, StatementBrand>();
  for (const posting of chargePostings) {
    const c = chargeOf(posting);
    const brand = c.paymentMethod === "ach" ? "ach" : (c.cardBrand ?? "unknown");
    const entry = brands.get(brand) ?? { brand, count: 0, volume: 0 };
    entry.count += 1;
    entry.volume += posting.amount;
    brands.set(brand, entry);
  }
  const days = new Map<string, StatementDay>();
  const day = (d: Date) => {
    const date = d.toISOString().slice(0, 10);
    const entry = days.get(date) ?? { date, charges: 0, volume: 0, refunds: 0, returns: 0, fees: 0 };
    days.set(date, entry);
    return entry;
  };
  for (const p of chargePostings) {
    const d = day(p.createdAt);
    d.charges += 1;
    d.volume += p.amount;
    d.fees += p.fee;
  }
  for (const p of refundPostings) day(p.createdAt).refunds -= p.amount;
  // Returns apart from refunds: a bank's return is not the merchant's refund.
  for (const p of returnPostings) day(p.createdAt).returns -= p.amount;
  for (const p of reversalPostings) day(p.createdAt).returns -= p.amount;

  const achLine = (kind: "return" | "return_reversal", p: StatementPosting) => ({
    kind,
    id: p.sourceId,
    charge_id: p.sourceId,
    created_at: p.createdAt.toISOString(),
    amount: Math.abs(p.amount),
    fee: 0,
    card_brand: "ach",
    card_last_4: chargeOf(p).ach?.last4 ?? null,
    card_entry_method: null,
  });
  const items: StatementItem[] = [
    ...chargePostings.map((p) => {
      const c = chargeOf(p);
      return {
        kind: "charge" as const,
        id: c.id,
        charge_id: c.id,
        created_at: p.createdAt.toISOString(),
        amount: p.amount,
        fee: p.fee,
        card_brand: c.paymentMethod === "ach" ? "ach" : c.cardBrand,
        card_last_4: c.paymentMethod === "ach" ? (c.ach?.last4 ?? null) : c.cardLast4,
        card_entry_method: c.cardEntryMethod,
      };
    }),
    ...returnPostings.map((p) => achLine("return", p)),
    ...reversalPostings.map((p) => achLine("return_reversal", p)),
    ...refundPostings.map((p) => ({
      kind: "refund" as const,
      id: p.sourceId,
      charge_id: sourceOf(month.refunds, p).chargeId,
      created_at: p.createdAt.toISOString(),
      amount: -p.amount,
      fee: 0,
      card_brand: null,
      card_last_4: null,
      card_entry_method: null,
    })),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

  return {
    chargeCount: sums.chargeCount,
    refundCount: sums.refundCount,
    grossVolume: sums.gross,
    refunds: sums.refunds,
    returnCount: sums.returnCount,
    returns: sums.returns,
    reversalCount: sums.reversalCount,
    reversals: sums.reversals,
    fees,
    platformFees: sums.platformFees,
    // The month's postings' nets, less the month-end fees.
    net: sums.net - monthEnd.reduce((s, l) => s + l.amount, 0),
    feeLines,
    disputes: statementDisputes(
      disputePostings.map((p) => sourceOf(month.disputes, p)),
      wonPostings.map((p) => sourceOf(month.disputes, p)),
    ),
    cardBrands: [...brands.values()].sort((a, b) => b.volume - a.volume || a.brand.localeCompare(b.brand)),
    dailyTotals: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)),
    items,
  };
}
