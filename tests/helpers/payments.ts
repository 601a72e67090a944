import type { TestApi } from "./api";
import { submittedMerchant, waitForStatus } from "./onboarding";

/** A merchant through onboarding and automatic underwriting (the API's worker must run): APPROVED, with its keys and terminal. */
export async function approvedMerchant(
  api: TestApi,
  isv: { auth: string },
  change: (application: any) => void = () => {},
) {
  const { id } = await submittedMerchant(api, isv, change);
  const merchant = await waitForStatus(api, isv, id, ["APPROVED", "FAILED", "IN_PROGRESS"]);
  if (merchant.lead_onboarding_status !== "APPROVED")
    throw new Error(`merchant ${id} was not approved: ${JSON.stringify(merchant.requirements)}`);
  return {
    id: id as string,
    publishableKey: merchant.payment.tokenizer_publishable_key as string,
    terminalId: merchant.payment.terminal_id as string,
  };
}

/** Tokenizes a card the way the tokenizer frame does (the merchant's publishable key as Bearer). */
export async function tokenize(
  api: TestApi,
  publishableKey: string,
  number = "4242424242424242",
  more: Record<string, unknown> = {},
) {
  const res = await api.call("POST", "/v1/tokens", {
    auth: `Bearer ${publishableKey}`,
    body: {
      card: {
        number,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 2,
        cvc: number.startsWith("37") ? "1234" : "123",
        ...more,
      },
    },
  });
  if (res.status !== 200) throw new Error(`tokenize ${number}: ${res.status} ${res.text}`);
  return res.json.id as string;
}

/**
 * A payment request paid as a customer would pay it: by card (a scan-to-pay request, the card
 * tokenized) or by bank account (an invoice, the account tokenized, the ACH mandate accepted).
 * Answers the pay call's status and body (200 with the charge, or the decline).
 */
export async function payRequest(
  api: TestApi,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
  source: { card?: string; account?: string } = {},
  /** More of the request's creation body (a `platform_fee`...). */
  create: Record<string, unknown> = {},
) {
  const request = await api.call("POST", source.account ? "/v1/invoice" : "/v1/scan_to_pay", {
    auth: isv.auth,
    body: { merchant_id: merchant.id, amount, ...(source.account ? { sendVia: "none" } : {}), ...create },
  });
  if (request.status !== 200) throw new Error(`payment request: ${request.status} ${request.text}`);
  const token = source.account
    ? (
        await api.call("POST", "/v1/tokens", {
          auth: `Bearer ${merchant.publishableKey}`,
          body: {
            bank_account: {
              routing_number: "021000021",
              account_number: source.account,
              account_holder_name: "Ana Ruiz",
              account_type: "checking",
            },
          },
        })
      ).json.id
    : await tokenize(api, merchant.publishableKey, source.card);
  return api.call("POST", `/v1/payment_requests/${request.json.id}/pay`, {
    body: { token, ...(source.account ? { ach_authorization: { accepted: true } } : {}) },
  });
}
