import type { PaymentRequestRow } from "../db/schema";
import { must } from "../must";
import { requestTotal } from "../payments/total";
import { type PaymentRequestJson } from "../schemas/payment-requests";

/** Where a request's hosted pages live (the ISV's custom domain or this service). */
export const payPageUrl = (base: string, id: string) => `${base}/pay/${id}`;
export const qrCodeUrl = (base: string, id: string) => `${base}/v1/payment_requests/${id}/qr`;

/** The payment request as the API returns it (docs/reference.md section 10); `base` is the hosted pages' origin. */
export function serializePaymentRequest(row: PaymentRequestRow, base: string): PaymentRequestJson {
  const payUrl = payPageUrl(base, row.id);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    object: "payment_request",
    id: row.id,
    merchant_id: row.merchantId,
    payment_type: row.paymentType,
    status: row.status,
    currency: "usd",
    amount: row.amount,
    tax: row.tax,
    tip: row.tip,
    ...(row.items ? { items: row.items } : {}),
    subtotal: row.amount,
    ...(row.taxPercent !== null ? { tax_percent: row.taxPercent } : {}),
    total: requestTotal(row),
    ...(row.emailAddress ? { email_address: row.emailAddress } : {}),
    ...(row.phoneNumber ? { phone_number: row.phoneNumber } : {}),
    payment_asset_url: row.paymentType === "SCAN_TO_PAY" ? qrCodeUrl(base, row.id) : payUrl,
    pay_url: payUrl,
    charge_id: row.chargeId,
    customer: row.customerId,
    subscription: row.subscriptionId,
    payment_link_id: row.paymentLinkId,
    platform_fee: row.platformFee === null ? null : { amount: row.platformFee },
    ...(row.paymentType === "TERMINAL"
      ? {
          terminal_id: must(row.terminalId, "a terminal request's terminal"),
          signature_required: Boolean(row.signatureRequired),
          debit: row.debit !== false,
        }
      : {}),
    ...(row.paymentType === "INVOICE"
      ? { send_via: must(row.sendVia, "an invoice's channel"), sent_at: iso(row.sentAt), viewed_at: iso(row.viewedAt) }
      : {}),
    ...(row.paymentType === "MANUAL" || row.paymentType === "INVOICE" ? { description: row.description } : {}),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    paid_at: iso(row.paidAt),
    canceled_at: iso(row.canceledAt),
    declined_attempts: row.declinedAttempts,
    locked_at: iso(row.lockedAt),
  };
}
