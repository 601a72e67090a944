import { and, eq, isNull } from "drizzle-orm";

import { hostedBaseUrl, servesIsvPages } from "../../branding/hosts";
import { clock } from "../../clock";
import { charges, merchants, paymentRequests } from "../../db/schema";
import type { PaymentItem } from "../../db/schema/payments";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { businessName, receiptContact } from "../../merchants/facts";
import { requestTotal } from "../../payments/total";
import { publicFailureReason } from "../../serializers/pay-result";
import { payPageUrl, qrCodeUrl } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { awaitsAchClearing } from "../charges/rules";
import { liveCustomer } from "../customers/customers";
import { takesAch } from "../fees/merchant-pricing";
import { achAuthorizationFacts } from "./ach-authorization";
import { effectiveStatus } from "./status";

export type PayPageView = Awaited<ReturnType<typeof viewPayPage>>;

/**
 * What a hosted payment page shows (docs/reference.md section 12), for anyone holding the request's
 * unguessable id: the amounts, the merchant's business name, the ISV's branding, the state and,
 * once paid, the receipt. Opening an invoice records `viewed_at` (the first time). Null (404) for
 * an unknown id, or on a host that does not serve the request's ISV (another ISV's custom domain).
 */
export async function viewPayPage(db: Db, id: string, host: string) {
  if (!/^pr_[0-9A-Za-z]{22}$/.test(id)) return null;
  const [request] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
  if (!request) return null;
  const isv = await getAccount(db, request.isvAccountId);
  // On a custom domain, only its own ISV's requests: another ISV's domain never shows them.
  if (!servesIsvPages(host, isv)) return null;
  const [merchant] = await db.select().from(merchants).where(eq(merchants.id, request.merchantId));
  const branding = brandOf(isv);
  if (request.paymentType === "INVOICE" && !request.viewedAt) {
    await db
      .update(paymentRequests)
      .set({ viewedAt: clock.now() })
      .where(and(eq(paymentRequests.id, id), isNull(paymentRequests.viewedAt)));
  }
  const customer = await liveCustomer(db, request.customerId);
  const [charge] = request.chargeId ? await db.select().from(charges).where(eq(charges.id, request.chargeId)) : [];
  const now = clock.ms();
  const status = effectiveStatus(request, now);
  const fallbackAt = request.createdAt.getTime() + env.TERMINAL_CARD_TIMEOUT_SECONDS * 1000;
  const base = hostedBaseUrl(isv);
  return {
    id: request.id,
    type: request.paymentType,
    status,
    amount: request.amount,
    tax: request.tax,
    tip: request.tip,
    total: requestTotal(request),
    items: request.items as PaymentItem[] | null,
    taxPercent: request.taxPercent,
    description: request.description,
    business: (merchant && businessName(merchant)) || branding.display_name,
    branding,
    publishableKey: merchant?.payment.tokenizer_publishable_key ?? "",
    tokenizerOrigin: env.TOKENIZER_ORIGIN,
    /** Invoices and manual requests of merchants that take ACH may be paid by bank account (docs/reference.md section 13). */
    bankPayments: Boolean(
      merchant && (request.paymentType === "INVOICE" || request.paymentType === "MANUAL") && takesAch(merchant),
    ),
    /** What the bank debit's authorization says (lib/payments/ach-authorization.ts), in the page's words. */
    achAuthorization: achAuthorizationFacts(request, merchant, isv, new Date(now)),
    /** A request made for a customer: the page offers to save the card for them (docs/reference.md section 21). */
    offersToSave: customer !== null,
    lastFailureReason: publicFailureReason(request.lastFailureReason),
    /** Locked after too many declined attempts (card testing): the page offers no form. */
    locked: status === "PENDING" && request.lockedAt !== null,
    /** TERMINAL: the customer may pay on their phone (the terminal declined, or no card came in time). */
    terminalFallback: request.paymentType === "TERMINAL" && (request.lastFailureReason !== null || now >= fallbackAt),
    terminalFallbackAt: fallbackAt,
    payUrl: payPageUrl(base, request.id),
    qrUrl: qrCodeUrl("", request.id),
    expiresAt: request.expiresAt.toISOString(),
    paidAt: request.paidAt?.toISOString() ?? null,
    receipt: charge
      ? {
          method: charge.paymentMethod,
          brand: charge.cardBrand,
          last4: charge.paymentMethod === "ach" ? (charge.ach?.last4 ?? null) : charge.cardLast4,
          bankName: charge.ach?.bank_name ?? null,
          number: charge.receiptNumber,
          at: charge.createdAt.toISOString(),
          amount: charge.amountCaptured,
          /** A bank debit not yet cleared: "processing", not "received" (it can still come back). */
          processing: awaitsAchClearing(charge),
          /** How the customer reaches the business (its address, phone and e-mail). */
          contact: merchant ? receiptContact(merchant) : { address: null, phone: null, email: null },
        }
      : null,
    /** An invoice's e-mail, offered as the receipt's address (the customer it was sent to). */
    receiptEmail: request.paymentType === "INVOICE" ? request.emailAddress : null,
  };
}
