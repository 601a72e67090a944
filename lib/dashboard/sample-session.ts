import { buildAgreement } from "../agreement/agreement-text";
import type { AccountRow } from "../db/schema";
import { settingsOf } from "../domain/accounts/isv-facts";
import type { Loose } from "../loose-json";
import { onboardingSteps } from "../onboarding/steps";
import type { MerchantDefaults } from "../schemas/account";
import example from "../schemas/examples/merchant-application.json" with { type: "json" };
import type { OnboardingSessionJson } from "../serializers/onboarding-session";

const masked = (v: string) => `*****${v.slice(-4)}`;

/** A session filled with sample data (masked like a real one), for the ISV's branding preview. */
export function sampleSession(account: AccountRow, branding: MerchantDefaults, locale: "en" | "es") {
  const app = structuredClone(example) as Loose;
  app.tin = masked(app.tin);
  app.bank_account.account_number = masked(app.bank_account.account_number);
  app.bank_account.account_number_confirm = masked(app.bank_account.account_number_confirm);
  for (const o of ["owner_one", "owner_two"]) app[o].ssn = masked(app[o].ssn);
  const settings = settingsOf(account);
  const session: OnboardingSessionJson = {
    object: "onboarding_session",
    merchant_id: "mer_preview",
    lead_onboarding_status: "IN_PROGRESS",
    phone: null,
    merchant: app,
    device: null,
    device_selection: null,
    branding,
    steps: onboardingSteps.map((s) => ({ id: s.id, complete: s.id !== "agreement", requested: false })),
    requirements: { currently_due: [], errors: [], disabled_reason: "onboarding_incomplete", pending_verification: [] },
    verification: [],
    device_options: settings.devices,
    device_selection_required: settings.device_selection_required,
    allow_skip_device_selection: settings.allow_skip_device_selection,
    return_url: null,
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    agreement: { signed: false, name: null, signed_at: null },
  } as OnboardingSessionJson;
  const agreement = buildAgreement({
    locale,
    isvName: branding.display_name,
    application: example,
    defaultCapabilities: account.defaultCapabilities ?? {},
  });
  return { session, agreement };
}
