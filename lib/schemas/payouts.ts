import { z } from "zod";

// Payouts (docs/reference.md section 16): a settlement's positive net on its way to the merchant's bank.

export const payoutStatuses = ["pending", "in_transit", "paid", "failed", "held"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];
/** What a settlement says of its payout (or of the replacement of a failed one): a pending or in-transit payout is `scheduled`. */
export const settlementPayoutStatuses = ["scheduled", "held", "paid", "failed"] as const;
export type SettlementPayoutStatus = (typeof settlementPayoutStatuses)[number];

/**
 * Why the bank refused a payout (the sandbox: account number 000555555550 is closed); `instant_refused`:
 * the instant rail refused it at sending (docs/reference.md section 20; the money came back, no new
 * bank account is asked).
 */
export const payoutFailureCodes = [
  "account_closed",
  "no_account",
  "invalid_account_number",
  "instant_refused",
] as const;
export type PayoutFailureCode = (typeof payoutFailureCodes)[number];
/** What a bank answers for an account that cannot be paid (a new bank account is asked for). */
export type BankFailureCode = Exclude<PayoutFailureCode, "instant_refused">;

/**
 * Why a payout waits: the merchant's `automatic_payouts` is false; its bank account awaits
 * verification; an earlier payout failed and the merchant has not yet given a bank account verified since;
 * a risk alert paused them (`risk_review`, docs/reference.md section 20) until it is resolved.
 */
export const payoutHeldReasons = [
  "automatic_payouts_off",
  "bank_account_unverified",
  "payout_failed",
  "bank_account_cooling_off",
  "payouts_frozen",
  "risk_review",
] as const;
export type PayoutHeldReason = (typeof payoutHeldReasons)[number];

export const payoutRecipients = ["merchant", "account"] as const;
/** `standard`: by ACH, arriving `delay_days` business days after it is sent; `instant`: in minutes (section 20). */
export const payoutMethods = ["standard", "instant"] as const;
export type PayoutMethod = (typeof payoutMethods)[number];
export type PayoutRecipient = (typeof payoutRecipients)[number];

export const payoutSchema = z
  .object({
    object: z.literal("payout"),
    id: z.string(),
    recipient: z.enum(payoutRecipients).meta({
      description:
        "`merchant`: a settlement's net to the merchant's bank account; `account`: a residual to the ISV's own bank account (the guide: /docs/guide#section-19)",
    }),
    merchant_id: z.string().nullable().meta({ description: "The merchant paid (null for `recipient: account`)" }),
    settlement_id: z.string().nullable().meta({
      description:
        "The settlement that made it (its day's payout; null for `recipient: account`, a manual payout, or one the payout schedule made on a day with no settlement)",
    }),
    residual_id: z
      .string()
      .nullable()
      .meta({ description: "The residual this payout pays (`recipient: account`; else null)" }),
    replaces: z
      .string()
      .nullable()
      .meta({ description: "The failed payout this one pays again, once a new bank account was verified" }),
    automatic: z.boolean().meta({
      description:
        "True: made by the payout schedule (its lines, `GET /v1/balance_transactions?payout=`, add up to it); false: asked for with `POST /v1/payouts` (no lines: its own transaction is a line of the next automatic payout)",
    }),
    method: z.enum(payoutMethods).meta({ description: "`standard` (ACH) or `instant`" }),
    fee: z.number().int().nullable().meta({
      description: "An instant payout's fee in cents, taken from the balance besides `amount` (null: standard)",
    }),
    rail: z.enum(["rtp", "push_to_card"]).nullable().meta({
      description:
        "An instant payout's rail: `rtp` (RTP or FedNow to the bank account) or `push_to_card` (the merchant's debit card, `card`); null: standard",
    }),
    card: z.object({ id: z.string(), brand: z.string(), last4: z.string() }).nullable().meta({
      description:
        "A `push_to_card` payout's debit card (`GET /v1/merchants/{id}/payout_card`), as it was when the payout was made; else null",
    }),
    amount: z.number().int().meta({ description: "Cents, > 0" }),
    currency: z.literal("usd"),
    status: z.enum(payoutStatuses).meta({
      description: "pending → in_transit → paid | failed; held while payouts wait (held_reason), then pending",
    }),
    held_reason: z.enum(payoutHeldReasons).nullable(),
    failure_code: z.enum(payoutFailureCodes).nullable(),
    arrival_date: z.string().nullable().meta({
      description:
        "YYYY-MM-DD: the next business day (weekends and the Federal Reserve's holidays skipped) after it was sent; null while pending or held",
    }),
    bank_account: z
      .object({ last4: z.string(), bank_name: z.string().nullable() })
      .nullable()
      .meta({ description: "Where it goes (null while held for a bank account)" }),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch" }),
  })
  .meta({ id: "Payout" });

export const payoutListQuerySchema = z.object({
  recipient: z.enum(payoutRecipients).default("merchant").meta({
    description:
      "`merchant` (default): the merchants' payouts; `account`: the ISV's own (its residuals; the ISV's key only)",
  }),
  merchant_id: z.string().max(64).optional(),
  settlement_id: z.string().max(64).optional(),
  status: z.enum(payoutStatuses).optional(),
});
