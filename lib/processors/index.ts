import { env } from "../env";
import { AppError } from "../errors";
import type { AchProcessor, PaymentProcessor } from "./processor";
import { sandboxAchProcessor, sandboxProcessor } from "./sandbox";

/**
 * The processor payments go through: the sandbox simulator in sandbox. Production refuses payments
 * (403 `payments_not_configured`) until a real gateway is configured: no real card is ever sent
 * to a simulator.
 */
export function paymentProcessor(): PaymentProcessor {
  if (env.APP_ENV === "sandbox") return sandboxProcessor;
  throw new AppError(
    "payments_not_configured",
    "Card payments are not available yet on this deployment: no payment gateway is configured",
  );
}

/** The ACH processor bank payments go through: the sandbox simulator in sandbox; production refuses them like cards. */
export function achProcessor(): AchProcessor {
  if (env.APP_ENV === "sandbox") return sandboxAchProcessor;
  throw new AppError(
    "payments_not_configured",
    "Bank payments are not available yet on this deployment: no ACH processor is configured",
  );
}

/** The processor of a charge, by how it was paid. */
export const processorFor = (method: "card" | "ach") => (method === "ach" ? achProcessor() : paymentProcessor());
