import { createHash } from "node:crypto";

import { desc, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { type AccountRow, charges, type MerchantRow, payouts, settlements, statements } from "../../db/schema";
import { type Db } from "../../db/types";
import { lineAmount, summaryLines } from "../../ledger/settlement-figures";
import { netVolumes, nextSettlementFigures } from "../../ledger/volume";
import { nextMidnightUtc } from "../../payouts/business-days";
import { requirementsFor } from "../merchants/requirements";
import { merchantPayout } from "../payouts/recipient";
import { payoutFailureOf } from "../payouts/rules";

// The home's overview (docs/reference.md section 15): what the merchant took today and this month
// (the ledger's net volume, in cents; days and months in UTC, the settlement's clock), what the next
// settlement will take up (the ledger's postings no settlement took yet), the latest payments and the
// monthly statements.

export async function homeOverview(db: Db, merchant: MerchantRow, now = clock.now()) {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const [today, thisMonth, recent, monthly, settled, latestPayouts] = await Promise.all([
    netVolumes(db, [merchant.id], day),
    netVolumes(db, [merchant.id], month),
    db.select().from(charges).where(eq(charges.merchantId, merchant.id)).orderBy(desc(charges.seq)).limit(10),
    db
      .select({ id: statements.id, period: statements.period })
      .from(statements)
      .where(eq(statements.merchantId, merchant.id))
      .orderBy(desc(statements.period))
      .limit(24),
    db
      .select()
      .from(settlements)
      .where(eq(settlements.merchantId, merchant.id))
      .orderBy(desc(settlements.seq))
      .limit(10),
    db
      .select()
      .from(payouts)
      .where(eq(payouts.merchantId, merchant.id))
      .orderBy(desc(payouts.seq))
      .limit(10)
      .then((rows) => rows.map(merchantPayout)),
  ]);
  // What the next settlement takes so far, from the ledger's postings no settlement has taken.
  const next = await nextSettlementFigures(db, merchant.id, Math.min(0, settled[0]?.net ?? 0));
  const lines = summaryLines(next);
  // The next payout: the oldest one not yet paid (on its way, pending, or held and why).
  const nextPayout = latestPayouts
    .filter((p) => p.status === "in_transit" || p.status === "pending" || p.status === "held")
    .at(-1);
  const none = { amount: 0, count: 0 };
  return {
    today: today.get(merchant.id) ?? none,
    month: thisMonth.get(merchant.id) ?? none,
    nextSettlement: {
      at: nextMidnightUtc(now),
      /** Its payments less refunds, returns and reversed returns (before fees), and how many payments. */
      amount: (["gross", "refunds", "returns", "reversals"] as const).reduce((t, k) => t + lineAmount(lines, k), 0),
      count: next.chargeCount,
      /** Disputes it takes (amounts and fees) less the won ones it returns, in cents (> 0: taken). */
      disputes: 0 - (lineAmount(lines, "disputes") + lineAmount(lines, "disputes_won")),
      /** What the last settlement left owed (its negative net, <= 0): the next one takes it first. */
      carried: next.carriedIn,
    },
    recent,
    statements: monthly,
    settlements: settled,
    payouts: latestPayouts,
    nextPayout: nextPayout ?? null,
    /** The latest payout the bank refused, while no new bank account was given (the home asks for one). */
    failedPayout: payoutFailureOf(merchant.requirements)
      ? (latestPayouts.find((p) => p.status === "failed") ?? null)
      : null,
  };
}

/**
 * What the merchant has to do, each with the home's page where it is done: what its ISV or
 * underwriting asks (the documents page says what), and a new bank account a check could not
 * verify or wants a document for (settings, where the document is sent).
 */
export function homeAttention(
  merchant: MerchantRow,
  isv: AccountRow,
): { kind: "requirements" | "bank_account" | "payout_failed"; href: string }[] {
  const out: { kind: "requirements" | "bank_account" | "payout_failed"; href: string }[] = [];
  const requirements = requirementsFor(merchant, isv);
  // A payout the bank refused asks for a new bank account: in settings, said with the amount.
  const payoutFailure = payoutFailureOf(requirements);
  if (payoutFailure) out.push({ kind: "payout_failed", href: "/home/settings" });
  if (requirements.currently_due.some((f) => !payoutFailure || f !== payoutFailure.field))
    out.push({ kind: "requirements", href: "/home/documents" });
  const bank = merchant.verification.find((c) => c.type === "bank_account");
  if (bank?.status === "requires_document" || bank?.status === "failed")
    out.push({ kind: "bank_account", href: "/home/settings" });
  return out;
}

/**
 * A short fingerprint of the merchant's latest payments (which, their state, what was refunded):
 * the home's pages compare it with the one they were rendered with and render again when it moved
 * (a payment taken at the counter, a refund made elsewhere). One indexed read of 10 rows.
 */
export async function recentPaymentsSignature(db: Db, merchantId: string): Promise<string> {
  const rows = await db
    .select({
      id: charges.id,
      status: charges.status,
      captured: charges.amountCaptured,
      refunded: charges.amountRefunded,
    })
    .from(charges)
    .where(eq(charges.merchantId, merchantId))
    .orderBy(desc(charges.seq))
    .limit(10);
  return createHash("sha256")
    .update(rows.map((r) => `${r.id}:${r.status}:${r.captured}:${r.refunded}`).join("|"))
    .digest("base64url")
    .slice(0, 16);
}
