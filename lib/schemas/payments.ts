import { z } from "zod";
import { email } from "./atoms";
import { capabilityTypes } from "./vocabulary";
import { phoneNumber } from "./application";
import {
  bankAccountTypes,
  cardEntryMethods,
  chargeStatuses,
  fundingValues,
  paymentMethods,
  paymentRequestStatuses,
  paymentRequestTypes,
  paymentTypes,
  refundReasons,
  sendViaValues,
} from "./payment-values";

// Payment requests, tokens and charges (reference "Payments" and "Charges", CONTRACT.md section 10):
// one schema for each body and each resource, read by the routes, the pages, the tests and OpenAPI.

/** The largest total (amount + tax + tip) a request may ask for, in cents. */
export const MAX_TOTAL = 99_999_999;

const cents = (what: string) =>
  z.number().int(`${what} must be a whole number of cents`).min(0, `${what} must not be negative`).max(MAX_TOTAL, `${what} is too large`);

export const itemSchema = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  quantity: z.number().int("must be a whole number").min(1, "must be at least 1").max(10_000, "must be at most 10,000"),
  unit_price: cents("unit_price"),
});

/** A percentage 0-100 as a decimal string ("8.25"). */
export const taxPercentSchema = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,4})?$/, 'must be a decimal string from 0 to 100, e.g. "8.25"')
  .refine((v) => Number(v) <= 100, 'must be a decimal string from 0 to 100, e.g. "8.25"');

const merchantId = z.string().min(1).max(64).meta({ example: "mer_4kZ2qV9sT1pLmN8xRw3YbC" });

/** What every payment request asks: the amount (or items), tax, tip. */
const amounts = {
  merchant_id: merchantId,
  amount: cents("amount").optional().meta({ description: "Subtotal in cents. With `items`, omit it or send the items' sum." }),
  items: z.array(itemSchema).min(1, "must list at least one item").max(100, "must list at most 100 items").optional(),
  tax: cents("tax").optional().meta({ description: "Tax in cents (default 0, or computed from `taxPercent`)." }),
  taxPercent: taxPercentSchema.optional().meta({ description: "Tax rate as a decimal string; tax = round(subtotal × taxPercent / 100), half up." }),
  tip: cents("tip").optional().meta({ description: "Tip in cents (default 0)." }),
};

export const terminalRequestSchema = z
  .strictObject({
    merchant_id: merchantId,
    terminal_id: z.string().min(1).max(64).meta({ example: "tml_7Qm2xP0aZk3LwN5sVb8RtY" }),
    amount: cents("amount"),
    tax: cents("tax").optional(),
    tip: cents("tip").optional(),
    signature_required: z.boolean().optional().meta({ description: "Default false." }),
    debit: z
      .boolean()
      .optional()
      .meta({ description: "Whether the terminal accepts debit cards (default true); false declines them with `debit_not_allowed`." }),
    deadline_seconds: z
      .number()
      .int()
      .min(30, "must be from 30 to 900")
      .max(900, "must be from 30 to 900")
      .optional()
      .meta({ description: "Default 300: the unpaid request then expires." }),
  })
  .meta({ id: "CreateTerminalPaymentRequest" });

export const scanToPayRequestSchema = z.strictObject(amounts).meta({ id: "CreateScanToPayRequest" });

export const invoiceRequestSchema = z
  .strictObject({
    ...amounts,
    email_address: z.optional(email),
    phone_number: z.optional(phoneNumber).meta({ description: "E.164; needed when `sendVia` is `text` or `both`." }),
    sendVia: z.enum(sendViaValues).meta({ description: "Authoritative: how the invoice is sent." }),
    send_sms: z.boolean().optional().meta({ description: "Must agree with `sendVia` when given." }),
    send_email: z.boolean().optional().meta({ description: "Must agree with `sendVia` when given." }),
  })
  .meta({ id: "CreateInvoiceRequest" });

export const manualRequestSchema = z
  .strictObject({ ...amounts, description: z.string().trim().max(500, "must be at most 500 characters").optional() })
  .meta({ id: "CreateManualPaymentRequest" });

export type AmountsInput = {
  merchant_id: string;
  amount?: number;
  items?: { name: string; quantity: number; unit_price: number }[];
  tax?: number;
  taxPercent?: string;
  tip?: number;
};

export const paymentRequestListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  status: z.enum(paymentRequestStatuses).optional(),
  payment_type: z.enum(paymentRequestTypes).optional(),
});

export const paymentRequestSchema = z
  .object({
    object: z.literal("payment_request"),
    id: z.string(),
    merchant_id: z.string(),
    payment_type: z.enum(paymentRequestTypes).meta({ description: "`REFUND` is one of the reference's values; no operation creates one yet." }),
    status: z.enum(paymentRequestStatuses),
    currency: z.literal("usd"),
    amount: z.number().int(),
    tax: z.number().int(),
    tip: z.number().int(),
    items: z.array(itemSchema).optional(),
    subtotal: z.number().int(),
    tax_percent: z.string().optional(),
    total: z.number().int(),
    email_address: z.string().optional(),
    phone_number: z.string().optional(),
    payment_asset_url: z.string(),
    pay_url: z.string(),
    charge_id: z.string().nullable(),
    terminal_id: z.string().optional(),
    signature_required: z.boolean().optional(),
    debit: z.boolean().optional(),
    send_via: z.enum(sendViaValues).optional(),
    sent_at: z.string().nullable().optional(),
    viewed_at: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    created_at: z.string(),
    expires_at: z.string(),
    paid_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
  })
  .meta({ id: "PaymentRequest" });
export type PaymentRequestJson = z.infer<typeof paymentRequestSchema>;

export const billingAddressSchema = z
  .strictObject({
    phone: z.optional(phoneNumber),
    email: z.optional(email),
    company: z.string().trim().max(200).optional(),
    first_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
    address_line_1: z.string().trim().max(200).optional(),
    address_line_2: z.string().trim().max(200).optional(),
    city: z.string().trim().max(100).optional(),
    state: z.string().trim().max(100).optional(),
    postal_code: z.string().trim().max(20).optional(),
    country: z.string().trim().max(2).optional(),
    fax: z.string().trim().max(32).optional(),
  })
  .meta({ id: "BillingAddressInput" });

export const payRequestSchema = z
  .strictObject({
    token: z.string().min(1).max(64).meta({ example: "tok_9fK2mQ7xLp4RzW1nVb6YtC" }),
    email: z.optional(email).meta({ description: "Where to send the receipt." }),
    phone: z.optional(phoneNumber),
    billing_address: billingAddressSchema.optional(),
  })
  .meta({ id: "PayPaymentRequest" });

export const bankAccountInputSchema = z
  .strictObject({
    routing_number: z.string().max(32).meta({ description: "Nine digits; the ABA checksum is checked", example: "021000021" }),
    account_number: z.string().max(32).meta({ description: "4 to 17 digits; never stored (the token keeps the last four)", example: "000123456789" }),
    account_holder_name: z.string().max(100),
    account_type: z.enum(bankAccountTypes, { error: "must be checking or savings" }),
  })
  .meta({ id: "BankAccountInput" });

export const cardInputSchema = z
  .strictObject({
    card: z
      .strictObject({
        number: z.string().max(32),
        exp_month: z.union([z.number().int(), z.string().max(2)]),
        exp_year: z.union([z.number().int(), z.string().max(4)]),
        cvc: z.string().max(4),
      })
      .optional(),
    bank_account: bankAccountInputSchema
      .optional()
      .meta({ description: "Instead of `card`, for merchants with `ach` in their capability types (the invoice and manual pages)" }),
  })
  .meta({ id: "CreateTokenRequest" });
export type TokenInput = z.infer<typeof cardInputSchema>;

export const tokenSchema = z
  .object({
    object: z.literal("token"),
    id: z.string(),
    type: z.enum(["card", "bank_account"]),
    card: z
      .object({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.number().int(),
        exp_year: z.number().int(),
        funding: z.enum(fundingValues),
        fingerprint: z.string(),
      })
      .optional(),
    bank_account: z
      .object({
        bank_name: z.string().nullable(),
        last4: z.string(),
        account_type: z.enum(bankAccountTypes),
        account_holder_name: z.string(),
        fingerprint: z.string(),
      })
      .optional(),
    expires_at: z.string(),
  })
  .meta({ id: "Token" });

export const feeLineSchema = z
  .object({
    type: z.enum(["processing", "interchange", "markup"]),
    model: z.enum(capabilityTypes),
    rate_bps: z.number().meta({ description: "The rate in basis points (1 bp = 0.01 %)" }),
    fixed: z.number().meta({ description: "The fixed part in cents (fractions of a cent when the pricing has them)" }),
    amount: z.number().int().meta({ description: "This line's share of the fee in cents; the lines add up to `fee`" }),
    description: z.string(),
  })
  .meta({ id: "FeeLine" });
export type FeeLine = z.infer<typeof feeLineSchema>;

const processorSchema = z.object({ id: z.string(), processor_type: z.enum(["ACH", "CREDIT_CARD"]) });
export const chargeRefundSchema = z.object({
  id: z.string(),
  charge_id: z.string(),
  merchant_id: z.string(),
  amount: z.number().int(),
  created_at: z.number().int(),
});

export const chargeSchema = z
  .object({
    object: z.literal("charge"),
    id: z.string(),
    merchant: z.object({
      id: z.string(),
      gateway_merchant_id: z.string().nullable(),
      api_key: z.string().nullable(),
      pub_api_key: z.string().nullable(),
      processors: z.array(processorSchema),
    }),
    payment_request_id: z.string(),
    payment_type: z.enum(paymentTypes),
    status: z.enum(chargeStatuses),
    currency: z.literal("usd"),
    requested_amount: z.number().int(),
    amount_authorized: z.number().int(),
    amount_captured: z.number().int(),
    amount_refunded: z.number().int(),
    tip: z.number().int(),
    tax: z.number().int(),
    payment_method: z.enum(paymentMethods).meta({ description: "card, or ach for a bank payment (an addition)" }),
    processor: processorSchema.nullable().meta({ description: "The merchant's processor that took it: CREDIT_CARD for cards, ACH for bank payments" }),
    card_last_4: z.string().nullable().optional().meta({ description: "Absent on ACH charges" }),
    card_brand: z.string().nullable().optional(),
    card_expiration_date: z.string().nullable().optional(),
    card_type: z.string().nullable().optional(),
    card_entry_method: z.enum(cardEntryMethods),
    ach: z
      .object({ last4: z.string(), account_type: z.enum(bankAccountTypes), bank_name: z.string().nullable() })
      .optional()
      .meta({ description: "ACH charges only: the bank account (never its number)" }),
    billing_address: z
      .object({
        phone: z.string().nullable(),
        email: z.string().nullable(),
        company: z.string().optional(),
        first_name: z.string().optional(),
        last_name: z.string().optional(),
        address_line_1: z.string().optional(),
        address_line_2: z.string().optional(),
        city: z.string().optional(),
        state: z.string().optional(),
        postal_code: z.string().optional(),
        country: z.string().optional(),
        fax: z.string().optional(),
      })
      .nullable(),
    failure_reason: z.string().nullable(),
    receipt_number: z.string(),
    fee: z.number().int().nullable(),
    net: z.number().int().nullable(),
    fee_details: z.array(feeLineSchema).nullable(),
    settlement_id: z.string().nullable(),
    refunds: z.array(chargeRefundSchema),
    created_at: z.number().int(),
    authorized_at: z.number().int().nullable(),
    captured_at: z.number().int().nullable(),
    settled_at: z.number().int().nullable(),
    returned_at: z.number().int().nullable().meta({ description: "ACH: when the customer's bank returned it (status RETURNED)" }),
    return_reversed_at: z.number().int().nullable().meta({ description: "ACH: when the bank reversed that return (SETTLED again)" }),
  })
  .meta({ id: "Charge" });
export type ChargeJson = z.infer<typeof chargeSchema>;

export const chargeListQuery = z.object({
  merchant_id: z.string().max(64).optional(),
  status: z.enum(chargeStatuses).optional(),
  "created[gte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
  "created[lte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
});

/** What the public pay operation answers: the request after the attempt, and the attempt. */
export const payResultSchema = z
  .object({
    object: z.literal("payment_result"),
    outcome: z.enum(["paid", "declined"]),
    payment_request: paymentRequestSchema,
    charge: z.object({
      id: z.string(),
      status: z.enum(chargeStatuses),
      amount: z.number().int(),
      card_brand: z.string().nullable(),
      card_last_4: z.string().nullable(),
      failure_reason: z.string().nullable(),
      receipt_number: z.string(),
      created_at: z.number().int(),
    }),
  })
  .meta({ id: "PaymentResult" });

export const presentCardSchema = z
  .strictObject({
    card_entry_method: z.enum(["CHIP", "SWIPE"]),
    card_number: z.string().max(32).optional().meta({ description: "A test card (default 4242 4242 4242 4242)." }),
  })
  .meta({ id: "PresentCardRequest" });

export const createRefundSchema = z
  .strictObject({
    charge_id: z.string().min(1).max(64).meta({ example: "ch_8nW3kQ5zX1mP7vL2rT6yBd" }),
    amount: z
      .number()
      .int("must be a whole number of cents")
      .min(1, "must be at least 1 cent")
      .max(MAX_TOTAL)
      .optional()
      .meta({ description: "Cents; default: what is left to refund." }),
    reason: z.enum(refundReasons).optional(),
  })
  .meta({ id: "CreateRefundRequest" });

export const refundSchema = z
  .object({
    object: z.literal("refund"),
    id: z.string(),
    charge_id: z.string(),
    merchant_id: z.string(),
    amount: z.number().int(),
    currency: z.literal("usd"),
    reason: z.enum(refundReasons).nullable(),
    status: z.literal("succeeded"),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Refund" });
export type RefundJson = z.infer<typeof refundSchema>;

export const refundListQuery = z.object({ charge_id: z.string().max(64).optional(), merchant_id: z.string().max(64).optional() });

export const feePreviewRequestSchema = z
  .strictObject({
    merchant_id: z.string().min(1).max(64),
    amount: z.number().int("must be a whole number of cents").min(0).max(MAX_TOTAL),
    payment_method: z.enum(paymentMethods).optional().meta({ description: "card (default) or ach: a bank payment, priced by the ACH options" }),
    card_entry_method: z.enum(cardEntryMethods).optional().meta({ description: "Required for a card" }),
    card_brand: z.string().min(1).max(32).optional().meta({ description: "Required for a card: visa, mastercard, amex, discover..." }),
    funding: z.enum(fundingValues).optional().meta({ description: "Default credit" }),
    keyed_with_postal_code: z
      .boolean()
      .optional()
      .meta({ description: "Tiered pricing: a keyed card with a billing postal code is mid-qualified (default false)" }),
  })
  .meta({ id: "FeePreviewRequest" });

export const feePreviewSchema = z
  .object({
    object: z.literal("fee_preview"),
    merchant_id: z.string(),
    amount: z.number().int(),
    currency: z.literal("usd"),
    model: z.string().nullable(),
    fee: z.number().int().nullable(),
    net: z.number().int().nullable(),
    fee_details: z.array(feeLineSchema),
  })
  .meta({ id: "FeePreview" });

export const settlementSchema = z
  .object({
    object: z.literal("settlement"),
    id: z.string(),
    merchant_id: z.string(),
    currency: z.literal("usd"),
    charge_count: z.number().int(),
    refund_count: z.number().int(),
    gross: z.number().int().meta({ description: "Sum of its charges' amount_captured" }),
    refunds: z.number().int().meta({ description: "Sum of the refunds created since the last settlement" }),
    return_count: z.number().int().meta({ description: "ACH charges returned since the last settlement (an addition)" }),
    returns: z.number().int().meta({ description: "Sum of their amount_captured, taken back" }),
    reversal_count: z.number().int().meta({ description: "Returns taken back earlier that the banks reversed since the last settlement" }),
    reversals: z.number().int().meta({ description: "Sum of their amounts, paid back" }),
    fees: z.number().int().meta({ description: "Sum of its charges' fee" }),
    net: z.number().int().meta({ description: "gross - refunds - returns + reversals - fees" }),
    payout_status: z.enum(["scheduled", "held"]).meta({ description: "`held` when the merchant's automatic_payouts is false" }),
    cutoff: z.number().int().meta({ description: "Charges and refunds made before this instant (milliseconds) are in it" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Settlement" });

export const statementSchema = z
  .object({
    object: z.literal("statement"),
    id: z.string(),
    merchant_id: z.string(),
    period: z.string().meta({ description: "YYYY-MM" }),
    currency: z.literal("usd"),
    charge_count: z.number().int(),
    refund_count: z.number().int(),
    gross_volume: z.number().int().meta({ description: "Sum of amount_captured of the charges captured in the period" }),
    refunds: z.number().int().meta({ description: "Sum of the refunds created in the period" }),
    return_count: z.number().int().meta({ description: "ACH charges returned in the period (an addition)" }),
    returns: z.number().int().meta({ description: "Sum of their amounts" }),
    reversal_count: z.number().int().meta({ description: "ACH returns the banks reversed in the period" }),
    reversals: z.number().int().meta({ description: "Sum of their amounts" }),
    fees: z.number().int().meta({ description: "Processing fees of its charges, the ACH activity fees (returns, daily batches) and the monthly fees" }),
    net: z.number().int().meta({ description: "gross_volume - refunds - returns + reversals - fees" }),
    created_at: z.string(),
  })
  .meta({ id: "Statement" });

export const statementDetailSchema = statementSchema
  .extend({
    fee_lines: z.array(
      z.object({
        kind: z.enum(["processing", "monthly", "ach_activity"]),
        model: z.string(),
        description: z.string(),
        count: z.number().int(),
        amount: z.number().int(),
      }),
    ),
    card_brands: z.array(z.object({ brand: z.string(), count: z.number().int(), volume: z.number().int() })),
    daily_totals: z.array(
      z.object({ date: z.string(), charges: z.number().int(), volume: z.number().int(), refunds: z.number().int(), fees: z.number().int() }),
    ),
  })
  .meta({ id: "StatementDetail" });
