import { and, eq } from "drizzle-orm";

import { clock } from "../../clock";
import type { AchAuthorizationRecord } from "../../db/schema";
import { cardTokens, merchants, type PaymentRequestRow } from "../../db/schema";
import type { Db } from "../../db/types";
import { invalid } from "../../errors";
import { businessName } from "../../merchants/facts";
import { ACH_AUTHORIZATION_VERSION, achAuthorizationText } from "../../payments/ach-authorization";
import { saveConsentText } from "../../payments/save-consent";
import { getAccount } from "../accounts/get-account";
import { liveCustomer } from "../customers/customers";
import { keepMethod } from "../customers/payment-methods";
import { isRealPhone } from "../merchants/application";
import { achAuthorizationFacts } from "./ach-authorization";
import { findPublicPaymentRequest } from "./find-payment-request";
import { payRequest } from "./pay-payment-request";
import { type Customer, spendToken } from "./payment-source";

/**
 * POST /v1/payment_requests/{id}/pay (public: the hosted pages call it with a token from the
 * tokenizer). Spends the single-use token and pays the request with it.
 */
export async function payWithToken(
  db: Db,
  requestId: string,
  input: {
    token: string;
    ach_authorization?: { accepted: true; locale?: "en" | "es" };
    save_payment_method?: { accepted: true };
  } & Customer,
  context: { clientAddress: string | null },
) {
  const request = await findPublicPaymentRequest(db, requestId);
  for (const [param, phone] of [
    ["phone", input.phone],
    ["billing_address.phone", input.billing_address?.phone],
  ] as const) {
    if (phone && !isRealPhone(phone))
      throw invalid(param, `${param} must be a real phone number in E.164 (+14155550123) or a 10-digit US number`);
  }
  // A bank account pays invoices and manual requests of merchants that take ACH (docs/reference.md section 13).
  const [kind] = await db
    .select({ kind: cardTokens.kind })
    .from(cardTokens)
    .where(and(eq(cardTokens.id, input.token), eq(cardTokens.merchantId, request.merchantId)));
  const method = kind?.kind === "bank_account" ? "ach" : "card";
  if (method === "ach" && request.paymentType !== "INVOICE" && request.paymentType !== "MANUAL")
    throw invalid(
      "token",
      `A ${request.paymentType} payment request is paid by card only: bank payments pay invoices and manual requests`,
      "payment_method_not_allowed",
    );
  // A bank debit needs the payer's authorization, asked before the token is spent.
  let achAuthorization: AchAuthorizationRecord | undefined;
  if (method === "ach") {
    if (!input.ach_authorization?.accepted)
      throw invalid(
        "ach_authorization",
        "A bank payment needs the payer's authorization of the debit: show its text and send ach_authorization.accepted true",
        "ach_authorization_required",
      );
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, request.merchantId));
    const isv = await getAccount(db, request.isvAccountId);
    const locale = input.ach_authorization.locale ?? "en";
    const now = clock.now();
    achAuthorization = {
      version: ACH_AUTHORIZATION_VERSION,
      locale,
      text: achAuthorizationText(locale, achAuthorizationFacts(request, merchant, isv, now)),
      accepted_at: now.toISOString(),
      ip_address: context.clientAddress,
    };
  }
  // The box "save this card for future payments" (docs/reference.md section 21): the request's customer's.
  const saveFor = input.save_payment_method?.accepted ? await customerToSaveFor(db, request) : null;
  return payRequest(db, request, "MANUAL", input, () => spendToken(db, input.token, request.merchantId), {
    method,
    clientAddress: context.clientAddress,
    achAuthorization,
    afterPaid: saveFor
      ? (tx, source) => {
          const locale = input.locale ?? "en";
          return keepMethod(tx, saveFor.customer, source, {
            text: saveConsentText(locale, saveFor.business, source.kind === "bank_account" ? "bank_account" : "card"),
            locale,
            accepted_at: clock.now().toISOString(),
            ip_address: context.clientAddress,
            source: "pay_page",
          });
        }
      : undefined,
  });
}

/** The customer a paid request's card is saved for, and the business named in the box; 400 without one. */
async function customerToSaveFor(db: Db, request: PaymentRequestRow) {
  const customer = await liveCustomer(db, request.customerId);
  if (!customer)
    throw invalid(
      "save_payment_method",
      "This payment request is not for a customer: there is nobody to save the card for",
      "parameter_not_allowed",
    );
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, request.merchantId));
  return { customer, business: merchant ? businessName(merchant) : "" };
}
