import type { ChargeRow } from "../db/schema";
import type { Entry } from "./post";

// The entries every movement writes (./payment-movements.ts, ./settlement-movements.ts,
// ./payout-movements.ts): a merchant's pending money, a platform account, the clearing account a
// payment method's money comes through, and how a payment is named in a posting's description.

export const pending = (merchantId: string, amount: number): Entry => ({
  account: "pending",
  owner: merchantId,
  amount,
});
export const platform = (account: Entry["account"], amount: number): Entry => ({ account, owner: null, amount });
export const clearingOf = (charge: Pick<ChargeRow, "paymentMethod">) =>
  charge.paymentMethod === "ach" ? ("ach_clearing" as const) : ("card_clearing" as const);
export const methodWords = (charge: Pick<ChargeRow, "paymentMethod" | "cardBrand" | "cardLast4" | "ach">) =>
  charge.paymentMethod === "ach"
    ? `bank account •••• ${(charge.ach as { last4?: string } | null)?.last4 ?? ""}`.trim()
    : `${charge.cardBrand ?? "card"} •••• ${charge.cardLast4 ?? ""}`.trim();
/** The ISV's revenue account (platform fees, residuals). */
export const isvRevenue = (isvAccountId: string, amount: number): Entry => ({
  account: "revenue",
  owner: isvAccountId,
  amount,
});
