import { and, eq } from "drizzle-orm";

import type { Principal } from "../../auth/principal";
import type { MerchantRow } from "../../db/schema";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError, notFound } from "../../errors";

// Who may see and take payments (docs/reference.md section 2): an ISV (master key or user JWT) for any of
// its merchants, or a merchant's own key for itself. Everything else is "no such object" (404).

export type PaymentScope = { isvAccountId: string; merchantId?: string };

export async function paymentScope(db: DbOrTx, principal: Principal): Promise<PaymentScope> {
  if (principal.kind === "onboarding" || principal.kind === "publishable")
    throw new AppError("unauthenticated", "These credentials cannot take or read payments");
  if (principal.accountType === "isv") return { isvAccountId: principal.accountId };
  if (principal.accountType === "merchant" && principal.parentId) {
    const [own] = await db
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.merchantAccountId, principal.accountId));
    if (own) return { isvAccountId: principal.parentId, merchantId: own.id };
  }
  throw new AppError("account_type_not_allowed", `Payments are not available to ${principal.accountType} accounts`);
}

/** The merchant, within the caller's scope (another account's merchant is a 404). */
export async function findScopedMerchant(db: DbOrTx, scope: PaymentScope, merchantId: string): Promise<MerchantRow> {
  if (scope.merchantId && scope.merchantId !== merchantId) throw notFound("merchant", merchantId, "merchant_id");
  const [row] = await db
    .select()
    .from(merchants)
    .where(and(eq(merchants.isvAccountId, scope.isvAccountId), eq(merchants.id, merchantId)));
  if (!row) throw notFound("merchant", merchantId, "merchant_id");
  return row;
}

/** 403 `merchant_not_approved` unless the merchant may take payments (approved, not deactivated). */
export function assertCanTakePayments(merchant: MerchantRow) {
  if (merchant.status !== "APPROVED") {
    throw new AppError(
      "merchant_not_approved",
      `The merchant cannot take payments: lead_onboarding_status is ${merchant.status}, expected APPROVED`,
    );
  }
  if (merchant.deactivated)
    throw new AppError("merchant_not_approved", "The merchant cannot take payments: it is deactivated");
}
