import { and, type Column, eq, type SQL } from "drizzle-orm";

import type { Principal } from "../auth/principal";
import { allOf } from "../db/conditions";
import type { MerchantRow } from "../db/schema";
import { merchants } from "../db/schema";
import { type DbOrTx } from "../db/types";
import { AppError, invalid, notFound } from "../errors";

// The caller's scope (docs/reference.md section 2), one rule for every area: an ISV (master key or
// user JWT) sees all of its merchants; a merchant (its own key, its home session, its onboarding
// session, an embedded component) sees itself. Anything outside is "no such object" (404).

export type Scope = { isvAccountId: string; merchantId?: string };
/** A scope narrowed to one merchant. */
export type MerchantScope = Scope & { merchantId: string };

/** Who may see and take payments: an ISV for any of its merchants, or a merchant's own key for itself. */
export async function paymentScope(db: DbOrTx, principal: Principal): Promise<Scope> {
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

/** Whose files a caller may add and read: an ISV's merchants, or a merchant's onboarding session its own. */
export function fileScope(principal: Principal): Scope {
  if (principal.kind === "onboarding") return { isvAccountId: principal.accountId, merchantId: principal.merchantId };
  if ((principal.kind === "api_key" || principal.kind === "user") && principal.accountType === "isv")
    return { isvAccountId: principal.accountId };
  throw new AppError("account_type_not_allowed", "Files are added by the ISV or by the merchant's own session");
}

/** The scope of one merchant (its home, its embedded components, its own pages). */
export const merchantScope = (merchant: Pick<MerchantRow, "id" | "isvAccountId">): MerchantScope => ({
  isvAccountId: merchant.isvAccountId,
  merchantId: merchant.id,
});

/** The predicate "this row is within the scope", for any table with the two owner columns. */
export function withinScope(table: { isvAccountId: Column; merchantId: Column }, scope: Scope): SQL {
  return scope.merchantId
    ? allOf(eq(table.isvAccountId, scope.isvAccountId), eq(table.merchantId, scope.merchantId))
    : eq(table.isvAccountId, scope.isvAccountId);
}

/**
 * The merchant, within the caller's scope (another account's merchant is a 404). Without an id, the
 * scope's own merchant (a merchant's session); an ISV must name one.
 */
export async function findScopedMerchant(db: DbOrTx, scope: Scope, merchantId?: string): Promise<MerchantRow> {
  const id = merchantId ?? scope.merchantId;
  if (!id) throw invalid("merchant_id", "merchant_id is required", "parameter_missing");
  if (scope.merchantId && scope.merchantId !== id) throw notFound("merchant", id, "merchant_id");
  const [row] = await db
    .select()
    .from(merchants)
    .where(and(eq(merchants.isvAccountId, scope.isvAccountId), eq(merchants.id, id)));
  if (!row) throw notFound("merchant", id, "merchant_id");
  return row;
}

/** Whether the merchant may take payments: approved, not deactivated. */
export const canTakePayments = (merchant: MerchantRow) => merchant.status === "APPROVED" && !merchant.deactivated;

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
