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
