import { eq } from "drizzle-orm";

import { merchants } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { coreApplicationShape } from "../../schemas/application";
import { approveMerchant, declineMerchant, requestInformation } from "./transitions";

export type ReviewDecision =
  { action: "approve" } | { action: "decline"; reason?: string } | { action: "request"; field: string; reason: string };

/** A field path a merchant can supply, e.g. `merchant.bank_account.routing_number` (prefix optional). */
export function normaliseField(field: string): string {
  const path = field.replace(/^merchant\./, "");
  const [top = ""] = path.split(".");
  if (!(top in coreApplicationShape)) {
    throw new AppError("parameter_invalid", `${field} is not a field of the onboarding information`, {
      param: "field",
    });
  }
  return `merchant.${path}`;
}

/** An operator's (or a sandbox test helper's) decision on a submitted application. */
export async function reviewMerchant(
  db: Db,
  scope: { isvAccountId?: string },
  merchantId: string,
  decision: ReviewDecision,
  by: string,
) {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for("update");
    if (!merchant || (scope.isvAccountId && merchant.isvAccountId !== scope.isvAccountId))
      throw notFound("merchant", merchantId, "merchant_id");
    if (decision.action === "approve") return approveMerchant(tx, merchant, { by });
    if (decision.action === "decline") return declineMerchant(tx, merchant, { by, reason: decision.reason });
    const field = normaliseField(decision.field);
    return requestInformation(tx, merchant, [{ field, code: "information_requested", message: decision.reason }], {
      by,
      reason: decision.reason,
    });
  });
}
