import { decideDispute, expireDispute } from "../domain/disputes/close-dispute";
import { checkCardDisputes } from "../domain/disputes/open-dispute";
import { runLedgerCheck } from "../domain/ledger/run-ledger-check";
import { expirePaymentRequest } from "../domain/payments/expire-payment-request";
import { recoverProcessorCall } from "../domain/payments/recover-processor-call";
import { runPayoutAdvance } from "../domain/payouts/advance-payout";
import { runPayoutReconsider } from "../domain/payouts/reconsider-payouts";
import { giveUpReport, runReport } from "../domain/reports/run-report";
import { runAccountBankCheck, runAccountResidualsPay } from "../domain/residuals/account-payouts";
import { runResiduals } from "../domain/residuals/run-residuals";
import { runPurge } from "../domain/retention/purge";
import { runRisk } from "../domain/risk/run-risk";
import { checkAchReturnReversals, checkAchReturns } from "../domain/settlements/ach-returns";
import { runSettlement } from "../domain/settlements/run-settlement";
import { runBilling, runStatements } from "../domain/statements/run-statements";
import { runSubscriptionDue } from "../domain/subscriptions/renew";
import { giveUpTestClock, runTestClockAdvance } from "../domain/test-clocks/test-clocks";
import { giveUpUnderwriting, runUnderwriting } from "../domain/underwriting/run-underwriting";
import { giveUpVerificationCheck, runVerificationCheck } from "../domain/verification/run-check";
import { deliverWebhook, giveUpDelivery, preloadDeliveries } from "../domain/webhooks/deliver-webhook";
import { type JobDefinition } from "../jobs/definition";
import { type JobName, type JobPayload, jobTypes } from "../jobs/job-types";
import { sendEmail } from "../notifications/send-email";

/** A registered type with its handler, the handler typed by the type's payload schema. */
const define = <T extends JobName, L = never>(
  name: T,
  run: Pick<JobDefinition<JobPayload<T>, L>, "handler" | "onGiveUp" | "preload">,
): JobDefinition<JobPayload<T>, L> => {
  // TypeScript widens jobTypes[name] to the union of every type; the payload is T's by construction.
  const spec = jobTypes[name] as unknown as Omit<JobDefinition<JobPayload<T>, L>, "handler" | "onGiveUp" | "preload">;
  return { ...spec, ...run };
};

/**
 * Every background job type the workers run: { payload schema, handler, backoff, maxAttempts }.
 * A registered type without a handler here, or a handler for an unregistered type, does not compile.
 */
export const jobRegistry = {
  webhook_delivery: define("webhook_delivery", {
    handler: deliverWebhook,
    onGiveUp: giveUpDelivery,
    preload: preloadDeliveries,
  }),
  underwriting: define("underwriting", { handler: runUnderwriting, onGiveUp: giveUpUnderwriting }),
  verification_check: define("verification_check", {
    handler: runVerificationCheck,
    onGiveUp: giveUpVerificationCheck,
  }),
  email: define("email", { handler: sendEmail }),
  payment_request_expiry: define("payment_request_expiry", { handler: expirePaymentRequest }),
  processor_call_recover: define("processor_call_recover", { handler: recoverProcessorCall }),
  settlement_run: define("settlement_run", { handler: runSettlement }),
  risk_run: define("risk_run", { handler: runRisk }),
  month_end_billing: define("month_end_billing", { handler: runBilling }),
  statement_run: define("statement_run", { handler: runStatements }),
  residual_run: define("residual_run", { handler: runResiduals }),
  account_bank_check: define("account_bank_check", { handler: runAccountBankCheck }),
  account_residuals_pay: define("account_residuals_pay", { handler: runAccountResidualsPay }),
  account_payout_advance: define("account_payout_advance", { handler: runPayoutAdvance }),
  ach_returns: define("ach_returns", { handler: checkAchReturns }),
  ach_return_reversals: define("ach_return_reversals", { handler: checkAchReturnReversals }),
  retention_purge: define("retention_purge", { handler: runPurge }),
  ledger_check: define("ledger_check", { handler: runLedgerCheck }),
  report_run: define("report_run", { handler: runReport, onGiveUp: giveUpReport }),
  payout_advance: define("payout_advance", { handler: runPayoutAdvance }),
  payout_reconsider: define("payout_reconsider", { handler: runPayoutReconsider }),
  card_disputes: define("card_disputes", { handler: checkCardDisputes }),
  dispute_deadline: define("dispute_deadline", { handler: (db, payload) => expireDispute(db, payload) }),
  dispute_decision: define("dispute_decision", { handler: decideDispute }),
  subscription_due: define("subscription_due", { handler: runSubscriptionDue }),
  test_clock_advance: define("test_clock_advance", { handler: runTestClockAdvance, onGiveUp: giveUpTestClock }),
} satisfies Record<JobName, JobDefinition>;
