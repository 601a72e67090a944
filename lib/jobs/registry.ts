import type { JobType } from "./runner";
import { WEBHOOK_JOB } from "../domain/webhooks/fan-out";
import { webhookJobType } from "../domain/webhooks/deliver-webhook";
import { UNDERWRITING_JOB, underwritingJobType } from "../domain/underwriting/run-underwriting";
import { EMAIL_JOB, emailJobType } from "../notifications/send-email";

/** Every background job type the workers run. */
export const jobTypes: Record<string, JobType> = {
  [WEBHOOK_JOB]: webhookJobType,
  [UNDERWRITING_JOB]: underwritingJobType,
  [EMAIL_JOB]: emailJobType,
};
