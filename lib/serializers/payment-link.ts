import type { PaymentLinkRow } from "../db/schema";
import { MAX_TOTAL } from "../schemas/money-fields";

/** The link's public URL on the ISV's hosted pages' origin. */
export const paymentLinkUrl = (base: string, id: string) => `${base}/l/${id}`;

/** A payment link (docs/reference.md section 21); `base` is the hosted pages' origin. */
export function serializePaymentLink(row: PaymentLinkRow, base: string) {
  const fromItems = row.items ? row.items.reduce((sum, i) => sum + i.unit_price * i.quantity, 0) : null;
  return {
    object: "payment_link" as const,
    id: row.id,
    merchant_id: row.merchantId,
    url: paymentLinkUrl(base, row.id),
    qr_code_url: `${base}/v1/payment_links/${row.id}/qr`,
    active: row.active,
    amount: row.amount ?? fromItems,
    items: row.items,
    customer_chooses_amount: row.minAmount !== null ? { min: row.minAmount, max: row.maxAmount ?? MAX_TOTAL } : null,
    description: row.description,
    max_uses: row.maxUses,
    paid_count: row.paidCount,
    expires_at: row.expiresAt ? row.expiresAt.getTime() : null,
    metadata: row.metadata,
    created_at: row.createdAt.getTime(),
  };
}
export type PaymentLinkJson = ReturnType<typeof serializePaymentLink>;

/** Whether a link takes payments at `now` (ms), and if not why: its uses taken, its expiry passed, or turned off. */
export function paymentLinkState(link: PaymentLinkJson, now: number): "used_up" | "expired" | "on" | "off" {
  if (link.max_uses !== null && link.paid_count >= link.max_uses) return "used_up";
  if (link.expires_at !== null && link.expires_at <= now) return "expired";
  return link.active ? "on" : "off";
}
