import { eq } from "drizzle-orm";

import { clock } from "../../clock";
import { accounts } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { periodOf, periodRange } from "../statements/figures";
import { generateResidual } from "./generate-residual";

/** The 1st of the month after `from`'s, 04:00 UTC: after that night's settlement and the statements (02:00), whose month-end fees it counts. */
export function nextResidualRun(from = clock.now()) {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1, 4));
}

/** One `residual_run` job per finished month, keyed by the period: every instance may ask, one exists. */
export async function scheduleResiduals(db: DbOrTx, from = clock.now()) {
  const at = nextResidualRun(from);
  const period = periodOf(new Date(at.getTime() - 5 * 3600_000));
  await enqueueJob(db, "residual_run", { period }, { runAt: at, key: `residual_run_${period}` });
}

/**
 * The job: every ISV's residual for the month (each made once: a retry makes only the missing ones),
 * then next month's job.
 */
export async function runResiduals(db: Db, { period }: JobPayload<"residual_run">) {
  const { end } = periodRange(period);
  const isvs = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.type, "isv"));
  let made = 0;
  for (const isv of isvs) if ((await generateResidual(db, isv.id, period)).created) made++;
  log.info({ period, residuals: made }, "monthly residuals");
  await scheduleResiduals(db, new Date(Math.max(end.getTime(), clock.ms())));
}
