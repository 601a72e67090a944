import { clock } from "../../clock";
import { type Db, type DbOrTx } from "../../db/types";
import { enqueueJob, type JobPayload } from "../../jobs/job-types";
import { log } from "../../log";
import { nextMidnightUtc } from "../../payouts/business-days";
import { payScheduled } from "../payouts/pay-scheduled";
import { releaseDueReserves } from "../reserves/reserves";
import { merchantsToSettle, settleMerchant } from "./settle-merchant";

/**
 * The daily settlement lives in the job runner: one `settlement_run` job per day, keyed by its date,
 * so every instance may ask for it and it exists once; each run queues the next day's.
 */
export async function scheduleSettlement(db: DbOrTx, from = clock.now()) {
  const at = nextMidnightUtc(from);
  await enqueueJob(
    db,
    "settlement_run",
    { cutoff: at.toISOString() },
    { runAt: at, key: `settlement_run_${at.toISOString().slice(0, 10)}` },
  );
}

/**
 * Settles every merchant (or those of one ISV, or one merchant) with something to settle before
 * `cutoff` (after giving back what reserves hold and is due), then runs the payout schedules of the cutoff's day (../payouts/pay-scheduled.ts): money
 * that waited for its payout day goes out with the day's settlements. Answers the settlements made.
 */
export async function settleAll(db: Db, cutoff: Date, scope: { isvAccountId?: string; merchantId?: string } = {}) {
  // The reserves' money due back first: it leaves with the day's payouts.
  await releaseDueReserves(db, clock.now(), scope);
  const made = [];
  for (const merchantId of await merchantsToSettle(db, cutoff, scope.isvAccountId, scope.merchantId)) {
    const settlement = await settleMerchant(db, merchantId, cutoff);
    if (settlement) made.push(settlement);
  }
  await payScheduled(db, clock.now(), scope);
  return made;
}

/** The job's handler: settle everything made before the cutoff (midnight), then queue tomorrow's. */
export async function runSettlement(db: Db, { cutoff }: JobPayload<"settlement_run">) {
  const made = await settleAll(db, new Date(cutoff));
  log.info({ cutoff, settlements: made.length }, "daily settlement");
  // The day's risk checks, once, after its settlements (../risk/run-risk.ts).
  await enqueueJob(db, "risk_run", { day: cutoff }, { key: `risk_run_${cutoff.slice(0, 10)}` });
  // Tomorrow's; after an outage, the next midnight from now (this run settled the missed days).
  await scheduleSettlement(db, new Date(Math.max(Date.parse(cutoff), clock.ms())));
}
