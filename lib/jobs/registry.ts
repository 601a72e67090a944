import type { JobType } from "./runner";
import { WEBHOOK_JOB } from "../domain/webhooks/fan-out";
import { webhookJobType } from "../domain/webhooks/deliver-webhook";

/** Every background job type the workers run. */
export const jobTypes: Record<string, JobType> = {
  [WEBHOOK_JOB]: webhookJobType,
};
