import { mask } from "../crypto/field-encryption";
import type { ChargeRow, MerchantRow } from "../db/schema";

/** A charge with its net, the ledger's (lib/domain/charges/charge-nets.ts). */
type LedgerCharge = ChargeRow & { net: number | null; settlementId: string | null };
import { type ChargeJson } from "../schemas/charges";
import { chargePlatformFee } from "./platform-fee";

type Refund = ChargeJson["refunds"][number];

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** The charge as the API returns it: the reference's Charge with the contract's additions (timestamps in milliseconds). */
export function serializeCharge(row: LedgerCharge, merchant: MerchantRow, refunds: Refund[] = []): ChargeJson {
  const keys = merchant.paymentKeys;
  const processorType = row.paymentMethod === "ach" ? "ACH" : "CREDIT_CARD";
  const card =
    row.paymentMethod === "ach"
      ? {}
      : {
          card_last_4: row.cardLast4,
          card_brand: row.cardBrand,
          card_expiration_date: row.cardExpirationDate,
          card_type: row.cardType,
        };
  return {
    object: "charge",
    id: row.id,
    merchant: {
      id: merchant.id,
      gateway_merchant_id: keys?.gateway_merchant_id ?? null,
      api_key: keys?.api_key_last4 ? mask(keys.api_key_last4, 32) : null,
      pub_api_key: keys?.pub_api_key ?? null,
      processors: keys?.processors ?? [],
    },
    payment_request_id: row.paymentRequestId,
    customer: row.customerId,
    payment_method_id: row.savedMethodId,
    payment_type: row.paymentType,
    status: row.status,
    currency: "usd",
    requested_amount: row.requestedAmount,
    amount_authorized: row.amountAuthorized,
    amount_captured: row.amountCaptured,
    amount_refunded: row.amountRefunded,
    tip: row.tip,
    tax: row.tax,
    payment_method: row.paymentMethod,
    processor: (keys?.processors ?? []).find((p) => p.processor_type === processorType) ?? null,
    ...card,
    card_entry_method: row.cardEntryMethod,
    ...(row.ach
      ? {
          ach: {
            last4: row.ach.last4,
            account_type: row.ach.account_type,
            bank_name: row.ach.bank_name,
            cleared_at: row.achClearedAt?.toISOString() ?? null,
            authorization: row.ach.authorization ?? null,
          },
        }
      : {}),
    billing_address: row.billingAddress,
    failure_reason: row.failureReason,
    receipt_number: row.receiptNumber,
    fee: row.fee,
    net: row.net,
    fee_details: row.feeDetails,
    platform_fee: chargePlatformFee(row),
    settlement_id: row.settlementId,
    refunds,
    created_at: row.createdAt.getTime(),
    authorized_at: ms(row.authorizedAt),
    captured_at: ms(row.capturedAt),
    settled_at: ms(row.settledAt),
    returned_at: ms(row.returnedAt),
    return_reversed_at: ms(row.returnReversedAt),
    disputed: row.disputeId !== null,
    dispute_id: row.disputeId,
  };
}

/**
 * The charge as its ISV reads it (its key or JWT, its webhooks): with what it cost the platform and
 * the ISV's margin (docs/reference.md section 19). Never for a merchant's key, home or components.
 */
export function serializeChargeForIsv(row: LedgerCharge, merchant: MerchantRow, refunds: Refund[] = []): ChargeJson {
  return {
    ...serializeCharge(row, merchant, refunds),
    costs: row.costs,
    cost_details: row.costDetails,
    margin: row.margin,
    return_costs: row.returnCosts,
  };
}

/** The ISV (no merchant in its scope) reads costs and margin; a merchant's own key does not. */
export const chargeSerializerFor = (scope: { merchantId?: string }) =>
  scope.merchantId === undefined ? serializeChargeForIsv : serializeCharge;
