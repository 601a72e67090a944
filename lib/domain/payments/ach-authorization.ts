import type { AccountRow, MerchantRow, PaymentRequestRow } from "../../db/schema";
import { businessName, merchantContact } from "../../merchants/facts";
import type { AchAuthorizationFacts } from "../../payments/ach-authorization";
import { requestTotal } from "../../payments/total";
import { brandOf } from "../accounts/isv-facts";

/**
 * What a request's bank-debit authorization says (lib/payments/ach-authorization.ts): the same facts
 * for the pay page that shows the text and for the payment that keeps it.
 */
export function achAuthorizationFacts(
  request: Pick<PaymentRequestRow, "amount" | "tax" | "tip">,
  merchant: MerchantRow | undefined,
  isv: Pick<AccountRow, "id" | "defaults">,
  now: Date,
): AchAuthorizationFacts {
  return {
    business: (merchant && businessName(merchant)) || brandOf(isv).display_name,
    amount: requestTotal(request),
    contact: merchant ? merchantContact(merchant) : null,
    date: now.toISOString().slice(0, 10),
  };
}
