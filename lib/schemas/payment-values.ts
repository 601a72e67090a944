// The enumerations of payments (docs/reference.md section 10), shared by the database schema, the API
// schemas and the pages (which must not import the database layer).

export const paymentTypes = ["TERMINAL", "SCAN_TO_PAY", "INVOICE", "MANUAL"] as const;
export type PaymentType = (typeof paymentTypes)[number];
/** The reference's payment request `payment_type` values: the four requests, and REFUND (reserved: no operation makes one yet). */
export const paymentRequestTypes = [...paymentTypes, "REFUND"] as const;
export const paymentRequestStatuses = ["PENDING", "PAID", "CANCELED", "EXPIRED"] as const;
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];
/** RETURNED (an addition): an ACH charge the customer's bank sent back after settlement. */
export const chargeStatuses = ["AUTHORIZED", "SETTLED", "FAILED", "RETURNED"] as const;
export type ChargeStatus = (typeof chargeStatuses)[number];
/** How a charge was paid: a card, or a bank account (ACH, docs/reference.md section 13). */
export const paymentMethods = ["card", "ach"] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
export const bankAccountTypes = ["checking", "savings"] as const;
export type BankAccountType = (typeof bankAccountTypes)[number];
export const cardEntryMethods = ["CHIP", "SWIPE", "MANUAL"] as const;
export type CardEntryMethod = (typeof cardEntryMethods)[number];
export const sendViaValues = ["none", "text", "email", "both"] as const;
export const fundingValues = ["credit", "debit", "prepaid", "unknown"] as const;
export type Funding = (typeof fundingValues)[number];

/** The decline reasons of the sandbox processor (docs/reference.md section 10), plus the platform's own. */
export const failureReasons = [
  "card_declined",
  "insufficient_funds",
  "lost_card",
  "stolen_card",
  "expired_card",
  "incorrect_cvc",
  "processing_error",
  "debit_not_allowed",
] as const;
export type FailureReason = (typeof failureReasons)[number];

export const refundReasons = ["requested_by_customer", "duplicate", "fraudulent", "other"] as const;
/** `pending` while the processor has not answered (a timeout, a crash: the recovery job asks it), then `succeeded` or `failed`. */
export const refundStatuses = ["pending", "succeeded", "failed"] as const;
/** The calls to a processor that move money, each written before it is made (docs/reference.md section 10). */
export const processorCallKinds = ["authorize", "debit", "refund"] as const;

/** A subscription's states (docs/reference.md section 21). */
export const subscriptionStatuses = ["trialing", "active", "past_due", "canceled", "unpaid"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
export const subscriptionIntervals = ["week", "month", "year"] as const;
export type SubscriptionInterval = (typeof subscriptionIntervals)[number];
/** What a subscription becomes when its last retry fails (the ISV's `settings.subscription_failure_action`). */
export const subscriptionFailureActions = ["unpaid", "canceled"] as const;
