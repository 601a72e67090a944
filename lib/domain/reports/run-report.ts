import { and, asc, eq, gte, lt } from "drizzle-orm";

import { clock } from "../../clock";
import { payouts, type ReportRow, reports, residualLines, residuals } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { type JobPayload } from "../../jobs/job-types";
import { balanceTransactionsBetween, payoutLinesOf } from "../../ledger/balance-transactions";
import { log } from "../../log";
import { serializeReport } from "../../serializers/report";
import { centsToDecimal, neutraliseFormula } from "../../statements/statement-csv";
import { recordEvent } from "../events/record-event";

const csvLine = (cells: (string | number | null)[]) =>
  cells
    .map((cell) => {
      const text = neutraliseFormula(cell === null ? "" : String(cell));
      return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(",");

/** The report's rows, from the ledger (docs/reference.md section 18): a header, then one line each. */
async function reportRows(db: Db, report: ReportRow): Promise<(string | number | null)[][]> {
  const owner = { isvAccountId: report.isvAccountId, merchantId: report.merchantId ?? undefined };
  const money = (cents: number) => centsToDecimal(cents);
  if (report.type === "balance_transactions") {
    const rows = await balanceTransactionsBetween(db, owner, report.intervalStart, report.intervalEnd);
    return [
      ["id", "created", "merchant_id", "type", "source", "amount", "fee", "net", "currency", "status", "available_on", "settlement_id", "payout_id", "description"],
      ...rows.map((t) => [
        t.id,
        t.createdAt.toISOString(),
        t.merchantId,
        t.type,
        t.sourceId,
        money(t.amount),
        money(t.fee),
        money(t.net),
        t.currency,
        t.settlementId ? "available" : "pending",
        t.availableOn,
        t.settlementId,
        t.payoutId,
        t.description,
      ]),
    ];
  }
  if (report.type === "payout_reconciliation") {
    // Each payout made in the interval, then its lines: they add up to its amount.
    const made = await db
      .select()
      .from(payouts)
      .where(
        and(
          eq(payouts.isvAccountId, report.isvAccountId),
          // The merchants' payouts (the ISV's own are its residuals': not reconciled here).
          eq(payouts.recipient, "merchant"),
          report.merchantId ? eq(payouts.merchantId, report.merchantId) : undefined,
          gte(payouts.createdAt, report.intervalStart),
          lt(payouts.createdAt, report.intervalEnd),
        ),
      )
      .orderBy(asc(payouts.seq));
    const lines = await payoutLinesOf(
      db,
      owner,
      made.map((p) => p.id),
    );
    const out: (string | number | null)[][] = [
      ["payout_id", "merchant_id", "payout_amount", "payout_status", "arrival_date", "line_id", "line_type", "line_source", "line_amount", "line_fee", "line_net", "line_created"],
    ];
    for (const p of made)
      for (const l of lines.filter((line) => line.payoutId === p.id))
        out.push([
          p.id,
          p.merchantId,
          money(p.amount),
          p.status,
          p.arrivalDate,
          l.id,
          l.type,
          l.sourceId,
          money(l.amount),
          money(l.fee),
          money(l.net),
          l.createdAt.toISOString(),
        ]);
    return out;
  }
  // residual_lines: each line of the ISV's residuals made in the interval (docs/reference.md section 19).
  const lines = await db
    .select({ residual: residuals, line: residualLines })
    .from(residualLines)
    .innerJoin(residuals, eq(residuals.id, residualLines.residualId))
    .where(
      and(
        eq(residuals.isvAccountId, report.isvAccountId),
        gte(residuals.createdAt, report.intervalStart),
        lt(residuals.createdAt, report.intervalEnd),
        report.merchantId ? eq(residualLines.merchantId, report.merchantId) : undefined,
      ),
    )
    .orderBy(asc(residuals.seq), asc(residualLines.position));
  return [
    [
      "residual_id",
      "period",
      "merchant_id",
      "volume",
      "count",
      "merchant_fees",
      "costs",
      "margin",
      "share",
      "platform_fees",
      "amount",
    ],
    ...lines.map(({ residual, line }) => [
      residual.id,
      residual.period,
      line.merchantId,
      money(line.volume),
      line.count,
      money(line.merchantFees),
      money(line.costs),
      money(line.margin),
      money(line.share),
      money(line.platformFees),
      money(line.amount),
    ]),
  ];
}

/**
 * The `report_run` job: the report's CSV made from the ledger and kept with it (succeeded, with
 * `report.succeeded`), once: a report no longer pending is left alone. A failure is kept (failed,
 * with its message) after the job's last attempt.
 */
export async function runReport(db: Db, { report_id }: JobPayload<"report_run">) {
  const [report] = await db.select().from(reports).where(eq(reports.id, report_id));
  if (!report || report.status !== "pending") return;
  const rows = await reportRows(db, report);
  const csv = `${rows.map(csvLine).join("\n")}\n`;
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(reports)
      .set({ status: "succeeded", csv, rowCount: rows.length - 1, finishedAt: clock.now() })
      .where(and(eq(reports.id, report.id), eq(reports.status, "pending")))
      .returning();
    if (done)
      await recordEvent(tx, {
        accountId: done.isvAccountId,
        type: "report.succeeded",
        objectId: done.id,
        data: serializeReport(done),
      });
  });
  log.info({ report_id, rows: rows.length - 1 }, "report made");
}

/** After the job's last attempt: the report failed, saying so. */
export async function giveUpReport(db: DbOrTx, { report_id }: JobPayload<"report_run">, error: unknown) {
  await db
    .update(reports)
    .set({ status: "failed", failureMessage: "The report could not be made; ask for it again", finishedAt: clock.now() })
    .where(and(eq(reports.id, report_id), eq(reports.status, "pending")));
  log.error({ report_id, err: error }, "report failed");
}
