import { env } from "../env";
import { AppError } from "../errors";
import type { PaymentProcessor } from "./processor";
import { sandboxProcessor } from "./sandbox";

/**
 * The processor payments go through: the sandbox simulator in sandbox. Production refuses payments
 * (403 `payments_not_configured`) until a real gateway is configured: no real card is ever sent
 * to a simulator.
 */
export function paymentProcessor(): PaymentProcessor {
  if (env.APP_ENV === "sandbox") return sandboxProcessor;
  throw new AppError("payments_not_configured", "Card payments are not available yet on this deployment: no payment gateway is configured");
}
