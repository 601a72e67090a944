import { z } from "zod";

import { phoneNumber } from "./application";
import { email } from "./atoms";
import { cents } from "./money-fields";
import { chargeStatuses, paymentRequestStatuses, paymentRequestTypes, sendViaValues } from "./payment-values";
import { type PlatformFeeInput, platformFeeInputSchema } from "./platform-fees";

// Payment requests (reference "Payments"): the four ways to ask, the resource, the public pay
// operation's body and answer, and the sandbox terminal's card presentation.

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
  amount: cents("amount")
    .optional()
    .meta({ description: "Subtotal in cents. With `items`, omit it or send the items' sum." }),
  items: z.array(itemSchema).min(1, "must list at least one item").max(100, "must list at most 100 items").optional(),
  tax: cents("tax").optional().meta({ description: "Tax in cents (default 0, or computed from `taxPercent`)." }),
  taxPercent: taxPercentSchema
    .optional()
    .meta({ description: "Tax rate as a decimal string; tax = round(subtotal × taxPercent / 100), half up." }),
  tax_percent: taxPercentSchema.optional().meta({
    description:
      "The same as `taxPercent`, as the answer writes it (`tax_percent`): send either; both must agree when both are sent.",
  }),
  tip: cents("tip").optional().meta({ description: "Tip in cents (default 0)." }),
  platform_fee: platformFeeInputSchema.optional(),
  customer: z.string().min(1).max(64).optional().meta({
    description:
      "The merchant's customer (`cus_...`) the request is for: the pay page then offers to save the card for them (the guide: /docs/guide#section-21).",
  }),
};

export const terminalRequestSchema = z
  .strictObject({
    merchant_id: merchantId,
    terminal_id: z.string().min(1).max(64).meta({ example: "tml_7Qm2xP0aZk3LwN5sVb8RtY" }),
    amount: cents("amount"),
    tax: cents("tax").optional(),
    tip: cents("tip").optional(),
    signature_required: z.boolean().optional().meta({ description: "Default false." }),
    debit: z.boolean().optional().meta({
      description:
        "Whether the terminal accepts debit cards (default true); false declines them with `debit_not_allowed`.",
    }),
    deadline_seconds: z
      .number()
      .int()
      .min(30, "must be from 30 to 900")
      .max(900, "must be from 30 to 900")
      .optional()
      .meta({ description: "Default 300: the unpaid request then expires." }),
    platform_fee: platformFeeInputSchema.optional(),
  })
  .meta({ id: "CreateTerminalPaymentRequest" });

export const scanToPayRequestSchema = z.strictObject(amounts).meta({ id: "CreateScanToPayRequest" });

export const invoiceRequestSchema = z
  .strictObject({
    ...amounts,
    email_address: z.optional(email),
    phone_number: z.optional(phoneNumber).meta({ description: "E.164; needed when `send_via` is `text` or `both`." }),
    send_via: z.enum(sendViaValues).optional().meta({
      description:
        "Required (or `sendVia`): how the invoice is sent, authoritative. The answer's spelling; `sendVia` (the reference's) is taken too, and both must agree when both are sent.",
    }),
    sendVia: z
      .enum(sendViaValues)
      .optional()
      .meta({ description: "The reference's spelling of `send_via`: send either." }),
    send_sms: z.boolean().optional().meta({ description: "Must agree with `send_via` when given." }),
    send_email: z.boolean().optional().meta({ description: "Must agree with `send_via` when given." }),
    description: z
      .string()
      .trim()
      .max(500, "must be at most 500 characters")
      .optional()
      .meta({ description: "What the invoice is for, shown on the page and in the e-mail." }),
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
  tax_percent?: string;
  tip?: number;
  platform_fee?: PlatformFeeInput;
  customer?: string;
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
    payment_type: z
      .enum(paymentRequestTypes)
      .meta({ description: "`REFUND` is one of the reference's values; no operation creates one yet." }),
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
    customer: z.string().nullable().meta({
      description:
        "The merchant's customer (`cus_...`) the request is for: its pay page offers to save the card to them (section 21); null: none",
    }),
    payment_link_id: z.string().nullable().meta({
      description:
        "The payment link (`plink_...`) whose visit made this request (the guide: /docs/guide#section-21); null: none",
    }),
    subscription: z.string().nullable().meta({
      description:
        "The subscription (`sub_...`) whose period this invoice bills (the guide: /docs/guide#section-21); null: none",
    }),
    platform_fee: z.object({ amount: z.number().int() }).nullable().meta({
      description:
        "The ISV's fee on this payment, in cents (the guide: /docs/guide#section-19): given on its creation or chosen by the account's `platform_fee_rules`; null: none. Not shown to the paying customer.",
    }),
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
    declined_attempts: z.number().int().meta({
      description:
        "Declined attempts to pay this request. The fifth locks it (`locked_at`); unlocking sets it back to 0.",
    }),
    locked_at: z.string().nullable().meta({
      description:
        "When too many declined attempts locked the request (card testing): it stays `PENDING` but cannot be paid until `POST /v1/payment_requests/{id}/unlock`.",
    }),
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
    locale: z
      .enum(["en", "es"])
      .optional()
      .meta({ description: "The language the payer read the page in: the receipt e-mail's (default: the merchant's)" }),
    ach_authorization: z
      .strictObject({
        accepted: z.literal(true).meta({ description: "The payer accepted the authorization text the page showed" }),
        locale: z.enum(["en", "es"]).default("en").meta({ description: "The language the text was shown in" }),
      })
      .optional()
      .meta({
        description:
          "Required with a bank account token: the payer's acceptance of the debit's authorization (what, how much, when, how to revoke). The text, its version, the time and the payer's address are kept on the charge (`ach.authorization`).",
      }),
    save_payment_method: z
      .strictObject({
        accepted: z.literal(true).meta({
          description:
            'The payer ticked the page\'s box "Save this card for future payments to <business>" (off by default)',
        }),
      })
      .optional()
      .meta({
        description:
          "Only on a request made for a customer (`customer`): once paid, the card (or bank account) is kept as the customer's saved method, with the box's words in `locale`, the time and the payer's address. 400 `parameter_not_allowed` on a request without a customer. A decline saves nothing.",
      }),
  })
  .meta({ id: "PayPaymentRequest" });

/** What the public pay operation answers: the request after the attempt, and the attempt. */
export const payResultSchema = z
  .object({
    object: z.literal("payment_result"),
    outcome: z.enum(["paid", "declined"]),
    payment_request: paymentRequestSchema
      .omit({ email_address: true, phone_number: true, platform_fee: true, customer: true, subscription: true })
      .meta({
        id: "PublicPaymentRequest",
        description: "The request, without the customer's e-mail or phone, or the ISV's fee.",
      }),
    charge: z.object({
      id: z.string(),
      status: z.enum(chargeStatuses),
      amount: z.number().int(),
      card_brand: z.string().nullable(),
      card_last_4: z.string().nullable(),
      failure_reason: z.string().nullable().meta({
        description:
          "`incorrect_cvc`, `expired_card`, `debit_not_allowed` or `processing_error` as they are; every other decline reads `card_declined` (the charge keeps the precise reason).",
      }),
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
