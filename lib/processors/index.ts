import { env } from "../env";
import { AppError } from "../errors";
import type { AchProcessor, PaymentProcessor } from "./processor";
import { sandboxAchProcessor, sandboxProcessor } from "./sandbox";

type StandIns = { card?: PaymentProcessor; ach?: AchProcessor; timeoutMs?: number };
let standIns: StandIns = {};

/** How long a call to the processor is waited for (PROCESSOR_TIMEOUT_MS; a test's stand-in may say less). */
export const processorTimeoutMs = () => standIns.timeoutMs ?? env.PROCESSOR_TIMEOUT_MS;

/**
 * The processor payments go through: the sandbox simulator in sandbox. Production refuses payments
 * (403 `payments_not_configured`) until a real gateway is configured: no real card is ever sent
 * to a simulator.
 */
export function paymentProcessor(): PaymentProcessor {
  if (env.APP_ENV === "sandbox") return standIns.card ?? sandboxProcessor;
  throw new AppError(
    "payments_not_configured",
    "Card payments are not available yet on this deployment: no payment gateway is configured",
  );
}

/** The ACH processor bank payments go through: the sandbox simulator in sandbox; production refuses them like cards. */
export function achProcessor(): AchProcessor {
  if (env.APP_ENV === "sandbox") return standIns.ach ?? sandboxAchProcessor;
  throw new AppError(
    "payments_not_configured",
    "Bank payments are not available yet on this deployment: no ACH processor is configured",
  );
}

/** The processor of a charge, by how it was paid. */
export const processorFor = (method: "card" | "ach") => (method === "ach" ? achProcessor() : paymentProcessor());

/**
 * Tests of a sandbox deployment only: a processor in the simulator's place (one that fails, hangs or
 * loses its answer), until the answered function puts the simulator back.
 */
export function standInProcessors(next: StandIns) {
  if (env.APP_ENV !== "sandbox") throw new Error("Stand-in processors are for sandbox tests only");
  const before = standIns;
  standIns = next;
  return () => {
    standIns = before;
  };
}
