import type { DatabaseHandle } from "../db/types";
import { scheduleLedgerCheck } from "../domain/ledger/run-ledger-check";
import { scheduleResiduals } from "../domain/residuals/run-residuals";
import { schedulePurge } from "../domain/retention/purge";
import { scheduleSettlement } from "../domain/settlements/run-settlement";
import { scheduleBilling, scheduleStatements } from "../domain/statements/run-statements";
import { startJobPools } from "./pools";

/**
 * The background work of a process, started once by the server and by `npm run worker`: the
 * scheduled jobs (the daily settlement, the month-end bills, the monthly statements and residuals, the nightly purge, the daily ledger check: each keyed by
 * its date, so every instance may ask and one exists), then, unless `runJobs` is false, the job
 * pools that run them.
 */
export async function startBackground(
  handle: DatabaseHandle,
  options: { runJobs?: boolean; pollMs?: number; leaseMs?: number } = {},
) {
  await scheduleSettlement(handle.db);
  await scheduleBilling(handle.db);
  await scheduleStatements(handle.db);
  await scheduleResiduals(handle.db);
  await schedulePurge(handle.db);
  await scheduleLedgerCheck(handle.db);
  return options.runJobs === false
    ? undefined
    : startJobPools(handle, { pollMs: options.pollMs, leaseMs: options.leaseMs });
}
