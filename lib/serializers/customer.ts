import type { CustomerRow, PaymentMethodRow } from "../db/schema";
import { cardExpired } from "../payments/card-expiry";

/** A merchant's customer (docs/reference.md section 21). */
export function serializeCustomer(row: CustomerRow) {
  return {
    object: "customer" as const,
    id: row.id,
    merchant_id: row.merchantId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    metadata: row.metadata,
    test_clock: row.testClockId,
    created_at: row.createdAt.getTime(),
  };
}
export type CustomerJson = ReturnType<typeof serializeCustomer>;

/** A saved payment method: never its number, only what the vault answered and the consent given. */
export function serializePaymentMethod(row: PaymentMethodRow, now: Date) {
  const expired = cardExpired(row, now);
  return {
    object: "payment_method" as const,
    id: row.id,
    type: row.type,
    customer: row.detachedAt ? null : row.customerId,
    merchant_id: row.merchantId,
    card:
      row.type === "card"
        ? {
            brand: row.brand ?? "",
            last4: row.last4,
            exp_month: row.expMonth ?? 0,
            exp_year: row.expYear ?? 0,
            funding: row.funding ?? "unknown",
            fingerprint: row.fingerprint,
            expired,
          }
        : null,
    us_bank_account:
      row.type === "us_bank_account"
        ? {
            bank_name: row.bankName,
            last4: row.last4,
            account_type: row.accountType,
            routing_number: row.routingNumber,
            fingerprint: row.fingerprint,
          }
        : null,
    consent: row.consent,
    status: row.detachedAt ? ("detached" as const) : expired ? ("expired" as const) : ("active" as const),
    created_at: row.createdAt.getTime(),
  };
}
export type PaymentMethodJson = ReturnType<typeof serializePaymentMethod>;
