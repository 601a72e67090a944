import { eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import {
  type AccountRow,
  customers,
  merchants,
  paymentMethods,
  type PaymentRequestRow,
  type SubscriptionRow,
} from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { businessName } from "../../merchants/facts";
import { queueEmail } from "../../notifications/send-email";
import { dunningEmail } from "../../notifications/subscription-templates";
import { requestTotal } from "../../payments/total";
import { payPageUrl } from "../../serializers/payment-request";
import { brandOf } from "../accounts/isv-facts";

/**
 * In the caller's transaction: the customer e-mailed that the period's payment failed, with the
 * invoice's pay link (where another card may be used, and saved for the next periods), in the
 * language the customer saved the method in. A customer without an e-mail address is not written to.
 */
export async function sendDunningEmail(
  tx: DbOrTx,
  sub: SubscriptionRow,
  invoice: PaymentRequestRow,
  isv: AccountRow,
  outcome: { nextAttempt?: Date | null; final?: "unpaid" | "canceled" },
) {
  const [customer] = await tx.select().from(customers).where(eq(customers.id, sub.customerId));
  if (!customer?.email) return;
  const [method] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, sub.paymentMethodId));
  const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, sub.merchantId));
  const brand = brandOf(isv);
  const business = (merchant && businessName(merchant)) || brand.display_name;
  const locale = method?.consent.locale ?? "en";
  const message = dunningEmail({
    brand,
    locale,
    business,
    total: requestTotal(invoice),
    items: invoice.items,
    period: { start: sub.currentPeriodStart, end: sub.currentPeriodEnd },
    method: { kind: method?.type === "us_bank_account" ? "bank_account" : "card", last4: method?.last4 ?? "" },
    payUrl: payPageUrl(hostedBaseUrl(isv), invoice.id),
    ...outcome,
  });
  await queueEmail(tx, {
    accountId: sub.isvAccountId,
    merchantId: sub.merchantId,
    kind: outcome.final ? `subscription.${outcome.final}` : "subscription.payment_failed",
    to: customer.email,
    locale,
    ...message,
  });
}
