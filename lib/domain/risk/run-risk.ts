import { type Db } from "../../db/types";
import { type JobPayload } from "../../jobs/job-types";
import { runRiskChecks } from "./risk-alerts";

/** The `risk_run` job: the day's risk checks (queued by the daily settlement, once per day). */
export async function runRisk(db: Db, { day }: JobPayload<"risk_run">) {
  await runRiskChecks(db, new Date(day));
}
