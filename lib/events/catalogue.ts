// Every event the platform emits (docs/reference.md sections 9, 10, 11): its type, the webhook scope that
// receives it, and the resource in its `data.object`. Fan-out, the events API, the OpenAPI document
// and docs/webhooks.md all read this one table.

export const webhookScopes = ["merchant", "charge", "account"] as const;
export type WebhookScope = (typeof webhookScopes)[number];

type Entry = { scope: WebhookScope; resource: string; description: string };

export const eventCatalogue = {
  "merchant.created": {
    scope: "merchant",
    resource: "merchant",
    description: "A merchant was created (POST /v1/merchants).",
  },
  "merchant.updated": {
    scope: "merchant",
    resource: "merchant",
    description: "The merchant's information, device, agreement or flags changed, or it opened its onboarding link.",
  },
  "merchant.submitted": {
    scope: "merchant",
    resource: "merchant",
    description: "The application was submitted: lead_onboarding_status is COMPLETED and underwriting runs.",
  },
  "merchant.information_requested": {
    scope: "merchant",
    resource: "merchant",
    description: "Underwriting needs more: back to IN_PROGRESS with requirements filled.",
  },
  "merchant.approved": {
    scope: "merchant",
    resource: "merchant",
    description: "Approved and provisioned (emitted exactly once).",
  },
  "merchant.declined": {
    scope: "merchant",
    resource: "merchant",
    description: "Declined: lead_onboarding_status is FAILED.",
  },
  "merchant.verification_updated": {
    scope: "merchant",
    resource: "merchant",
    description:
      "A verification check changed (queued, verified, asking for a document, failed): see the merchant's verification list.",
  },
  "merchant.bank_account_changed": {
    scope: "merchant",
    resource: "merchant",
    description:
      "An approved merchant entered a new bank account in its home: payouts wait until its check verifies it and the cooling-off days (settings.new_bank_account_hold_days) pass; the previous contact and owner one were told.",
  },
  "merchant.payouts_frozen": {
    scope: "merchant",
    resource: "merchant",
    description:
      "Someone answered a bank account or contact change notice with \"this wasn't me\": the merchant's payouts wait for an operator and every home session ended.",
  },
  "statement.created": { scope: "merchant", resource: "statement", description: "A monthly statement was generated." },
  "report.succeeded": {
    scope: "account",
    resource: "report",
    description: "A report asked for was made: its CSV can be downloaded.",
  },
  "residual.created": {
    scope: "account",
    resource: "residual",
    description:
      "A month's residual was made: the ISV's share of its merchants' margin and its platform fees; a positive amount is paid to the ISV's bank account.",
  },
  "payment_request.created": {
    scope: "charge",
    resource: "payment_request",
    description: "A payment request was created.",
  },
  "payment_request.paid": { scope: "charge", resource: "payment_request", description: "A payment request was paid." },
  "payment_request.canceled": {
    scope: "charge",
    resource: "payment_request",
    description: "A payment request was canceled.",
  },
  "payment_request.locked": {
    scope: "charge",
    resource: "payment_request",
    description: "Too many declined attempts locked a payment request (card testing); unlock it to take payment again.",
  },
  "payment_request.unlocked": {
    scope: "charge",
    resource: "payment_request",
    description: "A locked payment request was unlocked and can be paid again.",
  },
  "payment_request.expired": {
    scope: "charge",
    resource: "payment_request",
    description: "A payment request expired unpaid.",
  },
  "charge.authorized": { scope: "charge", resource: "charge", description: "A charge was authorized." },
  "charge.paid": { scope: "charge", resource: "charge", description: "A charge was paid." },
  "charge.failed": { scope: "charge", resource: "charge", description: "A payment attempt was declined." },
  "charge.settled": { scope: "charge", resource: "charge", description: "A charge was settled." },
  "charge.refunded": { scope: "charge", resource: "charge", description: "A charge was refunded, in part or in full." },
  "charge.returned": {
    scope: "charge",
    resource: "charge",
    description: "An ACH charge was returned after settlement.",
  },
  "charge.return_reversed": {
    scope: "charge",
    resource: "charge",
    description: "The bank reversed an ACH charge's return: it is settled again.",
  },
  "refund.created": {
    scope: "charge",
    resource: "refund",
    description: "A refund succeeded (a refund left pending by the processor: when its answer came).",
  },
  "refund.failed": {
    scope: "charge",
    resource: "refund",
    description:
      "A pending refund was declined when the processor's answer came: it is `failed` and the charge's `amount_refunded` is lowered again.",
  },
  "platform_fee.created": {
    scope: "charge",
    resource: "platform_fee",
    description: "A paid charge carried the ISV's platform fee: taken from the merchant's share to the ISV's revenue.",
  },
  "platform_fee.refunded": {
    scope: "charge",
    resource: "platform_fee",
    description:
      "A refund gave back part of a charge's platform fee to the merchant (pro rata; none when settings.platform_fee_refund is keep).",
  },
  "dispute.created": {
    scope: "charge",
    resource: "dispute",
    description:
      "A customer disputed a settled card charge: its amount and the dispute fee leave the next settlement; evidence is due by evidence_due_by.",
  },
  "dispute.updated": {
    scope: "charge",
    resource: "dispute",
    description: "The dispute's evidence was saved, or submitted (under_review).",
  },
  "dispute.closed": {
    scope: "charge",
    resource: "dispute",
    description:
      "The dispute was won (its amount comes back with the next settlement) or lost (accepted, decided, or not answered in time).",
  },
  "payout.created": {
    scope: "charge",
    resource: "payout",
    description: "A payout was made from a settlement's positive net (pending, or held).",
  },
  "payout.paid": { scope: "charge", resource: "payout", description: "A payout reached the merchant's bank." },
  "payout.failed": {
    scope: "charge",
    resource: "payout",
    description: "The merchant's bank refused a payout; later payouts wait for a new bank account.",
  },
  "merchant.risk_alert": {
    scope: "merchant",
    resource: "risk_alert",
    description:
      "The daily risk job found a rule broken (its figures and limit in `figures`) and did the ISV's chosen action (`settings.risk_actions`); once per merchant, rule and period.",
  },
  "reserve.created": {
    scope: "charge",
    resource: "reserve",
    description:
      "A reserve was put on the merchant's money (by the ISV, the operator or a risk rule): `held` is what it took at once (a fixed reserve), `reason` the words the merchant reads.",
  },
  "reserve.released": {
    scope: "charge",
    resource: "reserve",
    description:
      "A reserve ended (released by hand, or a fixed one on its release_on): what it held is available again.",
  },
  "customer.created": { scope: "charge", resource: "customer", description: "A merchant's customer was created." },
  "customer.updated": {
    scope: "charge",
    resource: "customer",
    description: "A customer's name, e-mail, phone or metadata changed.",
  },
  "customer.deleted": {
    scope: "charge",
    resource: "customer",
    description: "A customer was deleted; its saved payment methods were detached with it.",
  },
  "payment_method.attached": {
    scope: "charge",
    resource: "payment_method",
    description:
      "A card or bank account was saved for a customer, with the customer's consent (the pay page's box, or POST /v1/payment_methods).",
  },
  "payment_method.detached": {
    scope: "charge",
    resource: "payment_method",
    description: "A saved payment method was detached (by the merchant, the ISV, or with its customer's deletion).",
  },
  "payment_method.updated": {
    scope: "charge",
    resource: "payment_method",
    description:
      "A saved card's details changed without the customer: the card network's account updater gave its new expiry (sandbox: the card 4000000000003063, renewed before a charge finds it expired).",
  },
  "subscription.created": {
    scope: "charge",
    resource: "subscription",
    description: "A subscription was created (with a trial, or its first period charged).",
  },
  "subscription.updated": {
    scope: "charge",
    resource: "subscription",
    description:
      "A subscription changed: a new period began, its status moved (active, past_due, unpaid), or its payment method, cancel_at_period_end or metadata changed.",
  },
  "subscription.canceled": {
    scope: "charge",
    resource: "subscription",
    description:
      "A subscription ended: canceled by the merchant or the ISV, at its period's end, or after its last retry failed (settings.subscription_failure_action canceled).",
  },
  "invoice.paid": {
    scope: "charge",
    resource: "payment_request",
    description:
      "A subscription's period was paid: its payment request (type INVOICE, with subscription_id) is PAID, charged automatically or paid by the customer from the e-mailed link.",
  },
  "invoice.payment_failed": {
    scope: "charge",
    resource: "payment_request",
    description:
      "A subscription's automatic charge failed: the subscription is past_due and retried (days 1, 3, 5 and 7) unless the decline was hard, the customer is e-mailed a pay link; after the last, unpaid or canceled.",
  },
  "settlement.created": { scope: "charge", resource: "settlement", description: "A daily settlement was created." },
} as const satisfies Record<string, Entry>;

export type EventType = keyof typeof eventCatalogue;
export const eventTypes = Object.keys(eventCatalogue) as [EventType, ...EventType[]];

/** The scope whose webhooks receive an event of this type. */
export const scopeOf = (type: EventType): WebhookScope => eventCatalogue[type].scope;
