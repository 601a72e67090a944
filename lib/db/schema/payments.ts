import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import { type FeeLine } from "../../schemas/charges";
import type { CostLine } from "../../schemas/cost-profile";
import {
  bankAccountTypes,
  cardEntryMethods,
  chargeStatuses,
  fundingValues,
  paymentMethods,
  paymentRequestStatuses,
  paymentTypes,
  sendViaValues,
} from "../../schemas/payment-values";
import { customers, paymentMethods as savedMethods } from "./customers";
import { merchants } from "./merchants";

// Payments (docs/reference.md section 10): what a customer is asked to pay, the card tokens the tokenizer
// issues, and the charges (one per attempt; at most one successful charge per payment request).

export type PaymentItem = { name: string; quantity: number; unit_price: number };

export const paymentRequests = pgTable(
  "payment_requests",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    paymentType: text("payment_type", { enum: paymentTypes }).notNull(),
    status: text("status", { enum: paymentRequestStatuses }).notNull(),
    currency: text("currency").notNull().default("usd"),
    /** The subtotal in cents (the items' sum when items are given). */
    amount: integer("amount").notNull(),
    tax: integer("tax").notNull(),
    tip: integer("tip").notNull(),
    items: jsonb("items").$type<PaymentItem[]>(),
    taxPercent: text("tax_percent"),
    /** The ISV's platform fee on this payment (docs/reference.md section 19), chosen at creation; null: none. */
    platformFee: integer("platform_fee"),
    emailAddress: text("email_address"),
    phoneNumber: text("phone_number"),
    description: text("description"),
    terminalId: text("terminal_id"),
    signatureRequired: boolean("signature_required"),
    debit: boolean("debit"),
    sendVia: text("send_via", { enum: sendViaValues }),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    viewedAt: timestamp("viewed_at", { withTimezone: true, mode: "date" }),
    chargeId: text("charge_id"),
    /** The merchant's customer this request is for (docs/reference.md section 21): its pay page may save the card to them. */
    customerId: text("customer_id").references(() => customers.id),
    /** A subscription's period this invoice bills (docs/reference.md section 21): one request per period. */
    subscriptionId: text("subscription_id"),
    subscriptionPeriodStart: timestamp("subscription_period_start", { withTimezone: true, mode: "date" }),
    /** The payment link whose visit made this request (section 21). */
    paymentLinkId: text("payment_link_id"),
    /** The last declined attempt's reason, so the hosted pages can say why (cleared when paid). */
    lastFailureReason: text("last_failure_reason"),
    /** While a payment is being authorized: other attempts wait (one request, one successful charge). */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    /** Declined attempts so far (docs/reference.md section 10, card testing): the fifth locks the request. */
    declinedAttempts: integer("declined_attempts").notNull().default(0),
    /** Locked after too many declines: PENDING but not payable until the merchant or the ISV unlocks it. */
    lockedAt: timestamp("locked_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    canceledAt: timestamp("canceled_at", { withTimezone: true, mode: "date" }),
    expiredAt: timestamp("expired_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("payment_requests_seq_key").on(t.seq),
    index("payment_requests_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("payment_requests_merchant_seq_idx").on(t.merchantId, t.seq),
    // A terminal holds one open request at a time (409 terminal_busy), enforced by the database.
    uniqueIndex("payment_requests_open_terminal_key")
      .on(t.terminalId)
      .where(sql`${t.status} = 'PENDING' and ${t.terminalId} is not null`),
    // Two renewals never bill one period twice.
    uniqueIndex("payment_requests_subscription_period_key")
      .on(t.subscriptionId, t.subscriptionPeriodStart)
      .where(sql`${t.subscriptionId} is not null`),
  ],
);

export const cardTokens = pgTable(
  "card_tokens",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** A card, or a bank account (ACH): the card fields are null for a bank account and the bank's for a card. */
    kind: text("kind", { enum: ["card", "bank_account"] })
      .notNull()
      .default("card"),
    brand: text("brand"),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month"),
    expYear: integer("exp_year"),
    funding: text("funding", { enum: fundingValues }),
    bankName: text("bank_name"),
    accountType: text("account_type", { enum: bankAccountTypes }),
    /** The routing number is public (it names a bank), kept to show the customer which bank; never the account number. */
    routingNumber: text("routing_number"),
    fingerprint: text("fingerprint").notNull(),
    /** What the processor keeps to charge the card later (never the number or the CVC). */
    vault: jsonb("vault").$type<Record<string, unknown>>().notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("card_tokens_expires_idx").on(t.expiresAt)],
);

export type BillingAddress = Partial<
  Record<
    | "company"
    | "first_name"
    | "last_name"
    | "address_line_1"
    | "address_line_2"
    | "city"
    | "state"
    | "postal_code"
    | "country"
    | "fax",
    string
  >
> & { phone: string | null; email: string | null };

export type AchDetails = {
  last4: string;
  account_type: "checking" | "savings";
  bank_name: string | null;
  routing_number: string;
  /** The payer's authorization of the debit (lib/payments/ach-authorization.ts); absent on charges made before it was asked. */
  authorization?: AchAuthorizationRecord;
};
export type AchAuthorizationRecord = {
  version: string;
  locale: "en" | "es";
  text: string;
  accepted_at: string;
  ip_address: string | null;
};

export const charges = pgTable(
  "charges",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    paymentRequestId: text("payment_request_id")
      .notNull()
      .references(() => paymentRequests.id),
    paymentType: text("payment_type", { enum: paymentTypes }).notNull(),
    status: text("status", { enum: chargeStatuses }).notNull(),
    currency: text("currency").notNull().default("usd"),
    requestedAmount: integer("requested_amount").notNull(),
    amountAuthorized: integer("amount_authorized").notNull(),
    amountCaptured: integer("amount_captured").notNull(),
    amountRefunded: integer("amount_refunded").notNull().default(0),
    tip: integer("tip").notNull(),
    tax: integer("tax").notNull(),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last_4"),
    cardExpirationDate: text("card_expiration_date"),
    cardType: text("card_type"),
    cardFingerprint: text("card_fingerprint"),
    cardEntryMethod: text("card_entry_method", { enum: cardEntryMethods }).notNull(),
    paymentMethod: text("payment_method", { enum: paymentMethods }).notNull().default("card"),
    /** The customer and the saved method (section 21) a merchant-initiated charge was made with; null when the payer was present. */
    customerId: text("customer_id").references(() => customers.id),
    savedMethodId: text("saved_method_id").references(() => savedMethods.id),
    /** An ACH charge's bank account: never the account number. */
    ach: jsonb("ach").$type<AchDetails>(),
    /** When the customer's bank returned an ACH charge (status RETURNED); the ledger's posting says which settlement took it back. */
    returnedAt: timestamp("returned_at", { withTimezone: true, mode: "date" }),
    /** When the bank reversed its return (the charge is SETTLED again). */
    returnReversedAt: timestamp("return_reversed_at", { withTimezone: true, mode: "date" }),
    /** When an ACH charge cleared: its bank's return check found no return (or the bank reversed its return). Refundable from then on. */
    achClearedAt: timestamp("ach_cleared_at", { withTimezone: true, mode: "date" }),
    /** The dispute the customer opened on this charge (docs/reference.md section 16): no refund from then on. */
    disputeId: text("dispute_id"),
    billingAddress: jsonb("billing_address").$type<BillingAddress>(),
    /** The paying client's address (through TRUST_PROXY) on the hosted pages; null at a terminal. */
    clientAddress: text("client_address"),
    failureReason: text("failure_reason"),
    processorReference: text("processor_reference"),
    receiptNumber: text("receipt_number").notNull(),
    fee: integer("fee"),
    feeDetails: jsonb("fee_details").$type<FeeLine[]>(),
    /** What it cost the platform and what the ISV made on it (docs/reference.md section 19): the ISV's eyes only. */
    costs: integer("costs"),
    costDetails: jsonb("cost_details").$type<CostLine[]>(),
    margin: integer("margin"),
    /** What the bank's return of this ACH debit cost the platform (the profile's `ach.return_cost`), once returned. */
    returnCosts: integer("return_costs"),
    /** The ISV's platform fee taken from the merchant's share (section 19), and what refunds gave back of it. */
    platformFee: integer("platform_fee"),
    platformFeeRefunded: integer("platform_fee_refunded").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    authorizedAt: timestamp("authorized_at", { withTimezone: true, mode: "date" }),
    capturedAt: timestamp("captured_at", { withTimezone: true, mode: "date" }),
    settledAt: timestamp("settled_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("charges_seq_key").on(t.seq),
    index("charges_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("charges_isv_created_idx").on(t.isvAccountId, t.createdAt),
    index("charges_merchant_seq_idx").on(t.merchantId, t.seq),
    index("charges_authorized_idx")
      .on(t.merchantId)
      .where(sql`${t.status} = 'AUTHORIZED'`),
    // The card-testing windows (declines per card, per client address) read only declined attempts.
    index("charges_declined_fingerprint_idx")
      .on(t.cardFingerprint, t.createdAt)
      .where(sql`${t.status} = 'FAILED'`),
    // A subscription's invoice paid after a declined attempt is a recovery (lib/ledger/recovered.ts).
    index("charges_declined_request_idx")
      .on(t.paymentRequestId)
      .where(sql`${t.status} = 'FAILED'`),
    index("charges_declined_address_idx")
      .on(t.isvAccountId, t.clientAddress, t.createdAt)
      .where(sql`${t.status} = 'FAILED' and ${t.clientAddress} is not null`),
    // At most one successful charge per payment request, whatever races above it.
    uniqueIndex("charges_one_success_per_request_key")
      .on(t.paymentRequestId)
      .where(sql`${t.status} <> 'FAILED'`),
    // Whatever races above it, refunds never pass what was captured.
    check(
      "charges_refunded_within_captured",
      sql`${t.amountRefunded} >= 0 and ${t.amountRefunded} <= ${t.amountCaptured}`,
    ),
    // Refunds never give back more of the platform fee than was taken.
    check(
      "charges_platform_fee_refunded_within_fee",
      sql`${t.platformFeeRefunded} >= 0 and ${t.platformFeeRefunded} <= coalesce(${t.platformFee}, 0)`,
    ),
  ],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type PaymentRequestRow = typeof paymentRequests.$inferSelect;
export type TokenRow = typeof cardTokens.$inferSelect;
export type ChargeRow = typeof charges.$inferSelect;
