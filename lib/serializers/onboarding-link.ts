import type { OnboardingLinkRow } from "../db/schema";

/** The url (with its token) exists only in the create answer: the token is not stored. */
export function serializeOnboardingLink(row: OnboardingLinkRow, url: string) {
  return {
    object: "onboarding_link" as const,
    id: row.id,
    merchant_id: row.merchantId,
    type: "account_onboarding" as const,
    url,
    return_url: row.returnUrl,
    redirect_url: row.returnUrl,
    refresh_url: row.refreshUrl,
    state: row.state,
    allow_skip_device_selection: row.allowSkipDeviceSelection,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}
