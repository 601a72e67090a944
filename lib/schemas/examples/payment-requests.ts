import type { PaymentRequestJson } from "../payment-requests";

// The examples the OpenAPI document shows for payment requests, beside the schemas they illustrate.

export const examplePaymentRequest: PaymentRequestJson = {
  object: "payment_request",
  id: "pr_3hV8mK1qZ7xN2pL5wR9tYb",
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  payment_type: "SCAN_TO_PAY",
  status: "PENDING",
  currency: "usd",
  amount: 1150,
  tax: 95,
  tip: 0,
  items: [{ name: "Pad thai", quantity: 1, unit_price: 1150 }],
  subtotal: 1150,
  tax_percent: "8.25",
  total: 1245,
  payment_asset_url: "https://onboarding.example.com/v1/payment_requests/pr_3hV8mK1qZ7xN2pL5wR9tYb/qr",
  pay_url: "https://onboarding.example.com/pay/pr_3hV8mK1qZ7xN2pL5wR9tYb",
  charge_id: null,
  customer: null,
  subscription: null,
  payment_link_id: null,
  platform_fee: null,
  created_at: "2026-11-22T18:00:00.000Z",
  expires_at: "2026-11-29T18:00:00.000Z",
  paid_at: null,
  canceled_at: null,
  declined_attempts: 0,
  locked_at: null,
};

export const exampleTerminalRequest = {
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  terminal_id: "tml_7Qm2xP0aZk3LwN5sVb8RtY",
  amount: 2500,
  tax: 206,
  tip: 300,
  signature_required: false,
  debit: true,
};

export const exampleScanToPayRequest = {
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  items: [{ name: "Pad thai", quantity: 1, unit_price: 1150 }],
  taxPercent: "8.25",
  tip: 0,
};

export const exampleInvoiceRequest = {
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  email_address: "customer@example.com",
  sendVia: "email",
  send_email: true,
  send_sms: false,
  items: [{ name: "Catering for 12", quantity: 1, unit_price: 24000 }],
  taxPercent: "8.25",
  tip: 0,
};

export const exampleManualRequest = {
  merchant_id: "mer_4kZ2qV9sT1pLmN8xRw3YbC",
  amount: 4200,
  tax: 0,
  tip: 0,
  description: "Phone order #1042",
};

export const examplePayRequest = { token: "tok_9fK2mQ7xLp4RzW1nVb6YtC", email: "customer@example.com" };

const {
  platform_fee: _platformFee,
  customer: _customer,
  subscription: _subscription,
  ...examplePublicPaymentRequest
} = examplePaymentRequest;

export const examplePayResult = {
  object: "payment_result",
  outcome: "paid",
  payment_request: {
    ...examplePublicPaymentRequest,
    status: "PAID",
    charge_id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
    paid_at: "2026-11-22T18:02:00.000Z",
  },
  charge: {
    id: "ch_8nW3kQ5zX1mP7vL2rT6yBd",
    status: "AUTHORIZED",
    amount: 1245,
    card_brand: "visa",
    card_last_4: "4242",
    failure_reason: null,
    receipt_number: "20261122-8NW3KQ5Z",
    created_at: 1795370520000,
  },
};
