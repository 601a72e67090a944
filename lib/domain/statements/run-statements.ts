import { and, eq, gte, lt, sql } from "drizzle-orm";

import { clock } from "../../clock";
import { rowsOf } from "../../db/client";
import { one } from "../../db/one";
import { charges, disputes, merchants, refunds } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { billMonth } from "./bill-month";
import { generateStatement, periodOf, periodRange } from "./generate-statement";

/** The first instant of the month after `from`'s, plus two hours (after that night's settlement). */
export function nextStatementRun(from = clock.now()) {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1, 2));
}

/** One `statement_run` job per finished month, keyed by the period: every instance may ask, one exists. */
export async function scheduleStatements(db: DbOrTx, from = clock.now()) {
  const at = nextStatementRun(from);
  const period = periodOf(new Date(at.getTime() - 3 * 3600_000));
  await enqueueJob(db, "statement_run", { period }, { runAt: at, key: `statement_run_${period}` });
}

/**
 * The merchants a month's statement and bill are for: whatever a statement states (generateStatement),
 * charges captured, refunds made, ACH returns and their reversals, disputes opened or closed in the
 * month; a merchant whose only activity is a return is stated (and billed) too.
 */
async function merchantsActiveIn(db: Db, period: string) {
  const { start, end } = periodRange(period);
  const rows = await db.execute<{ merchant_id: string }>(
    sql`select distinct merchant_id from (
      select ${charges.merchantId} as merchant_id from ${charges} where ${and(gte(charges.capturedAt, start), lt(charges.capturedAt, end))}
      union select ${refunds.merchantId} from ${refunds} where ${and(gte(refunds.createdAt, start), lt(refunds.createdAt, end))}
      union select ${charges.merchantId} from ${charges} where ${and(gte(charges.returnedAt, start), lt(charges.returnedAt, end))}
      union select ${charges.merchantId} from ${charges} where ${and(gte(charges.returnReversedAt, start), lt(charges.returnReversedAt, end))}
      union select ${disputes.merchantId} from ${disputes} where ${and(gte(disputes.createdAt, start), lt(disputes.createdAt, end))}
      union select ${disputes.merchantId} from ${disputes} where ${and(gte(disputes.closedAt, start), lt(disputes.closedAt, end))}
    ) m`,
  );
  return rowsOf<{ merchant_id: string }>(rows).map((r) => r.merchant_id);
}

/** The first instant of the month after `from`'s, plus one hour: after that night's settlement, before the statements. */
export function nextBillingRun(from = clock.now()) {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1, 1));
}

/** One `month_end_billing` job per finished month, keyed by the period. */
export async function scheduleBilling(db: DbOrTx, from = clock.now()) {
  const at = nextBillingRun(from);
  const period = periodOf(new Date(at.getTime() - 2 * 3600_000));
  await enqueueJob(db, "month_end_billing", { period }, { runAt: at, key: `month_end_billing_${period}` });
}

/**
 * The billing job: every merchant active in the finished month gets its month-end bill (its fees
 * posted to the ledger, ./bill-month.ts), once; then next month's job. The statements, an hour
 * later, read the bills.
 */
export async function runBilling(db: Db, { period }: JobPayload<"month_end_billing">) {
  const { end } = periodRange(period);
  let billed = 0;
  for (const id of await merchantsActiveIn(db, period)) {
    const merchant = one(await db.select().from(merchants).where(eq(merchants.id, id)));
    if (await billMonth(db, merchant, period)) billed++;
  }
  log.info({ period, bills: billed }, "month-end bills");
  await scheduleBilling(db, new Date(Math.max(end.getTime(), clock.ms())));
}

/** The job: a statement for every merchant with charges, refunds, returns or reversals in the period, then next month's job. */
export async function runStatements(db: Db, { period }: JobPayload<"statement_run">) {
  const { end } = periodRange(period);
  const ids = await merchantsActiveIn(db, period);
  let made = 0;
  for (const id of ids) {
    try {
      if ((await generateStatement(db, id, period)).created) made++;
    } catch (error) {
      // Only FAILED charges in the month: nothing to state. Anything else is retried with the job.
      if (!(error instanceof Error && "code" in error && (error as { code: string }).code === "parameter_invalid"))
        throw error;
    }
  }
  log.info({ period, statements: made }, "monthly statements");
  await scheduleStatements(db, new Date(Math.max(end.getTime(), clock.ms())));
}
