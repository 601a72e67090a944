import { clock } from "../../clock";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { checkpointBalances } from "../../ledger/balances";
import { checkLedger, ledgerInvariants, type LedgerViolation } from "../../ledger/check";
import { log } from "../../log";
import { ledgerInvariantViolations } from "../../ops/metrics";

const DAY_MS = 24 * 3600 * 1000;

/** The next 01:00 UTC after `from`. */
export function nextLedgerCheckAt(from = clock.now()) {
  const at = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), 1));
  return at > from ? at : new Date(at.getTime() + DAY_MS);
}

/** One `ledger_check` job per day, keyed by its date: any number of instances ask, one exists. */
export async function scheduleLedgerCheck(db: DbOrTx, from = clock.now()) {
  const at = nextLedgerCheckAt(from);
  await enqueueJob(
    db,
    "ledger_check",
    { at: at.toISOString() },
    { runAt: at, key: `ledger_check_${at.toISOString().slice(0, 10)}` },
  );
}

/**
 * Checks every invariant of the ledger (../../ledger/check.ts): the gauge `ledger_invariant_violations`
 * says how many broke, by invariant, and each broken one is an error log line naming what broke
 * (the posting, payout, settlement or account, with the figures expected and found).
 */
export async function verifyLedger(db: DbOrTx): Promise<LedgerViolation[]> {
  const started = clock.ms();
  const violations = await checkLedger(db);
  for (const invariant of ledgerInvariants)
    ledgerInvariantViolations.set({ invariant }, violations.filter((v) => v.invariant === invariant).length);
  for (const v of violations) log.error(v, `ledger invariant broken: ${v.invariant} (${v.id})`);
  log.info({ violations: violations.length, ms: clock.ms() - started }, "ledger check");
  return violations;
}

/** The job: the check, the balances' checkpoints moved on (./../../ledger/balances.ts), then tomorrow's. */
export async function runLedgerCheck(db: Db, { at }: JobPayload<"ledger_check">) {
  await verifyLedger(db);
  const moved = await checkpointBalances(db);
  log.info({ accounts: moved }, "ledger balance checkpoints");
  await scheduleLedgerCheck(db, new Date(Math.max(Date.parse(at), clock.ms())));
}
