import type { z } from "zod";

import type { CheckedSession } from "../auth/onboarding-session";
import type { FieldError } from "../errors";
import { stepProgress } from "../onboarding/steps";
import type { MerchantDefaults } from "../schemas/account";
import type { DeviceCatalogEntry } from "../schemas/account";
import type { onboardingSessionResponseSchema } from "../schemas/merchant-response";
import type { PayoutSchedule } from "../schemas/payout-schedule";
import { serializeMerchant } from "./merchant";

export type OnboardingSessionJson = z.infer<typeof onboardingSessionResponseSchema>;

/** The session as the wizard reads it (docs/reference.md section 6): everything masked. */
export function serializeOnboardingSession(
  { merchant, link, isv }: CheckedSession,
  facts: {
    problems: FieldError[];
    device: { required: boolean; skippable: boolean; catalog: DeviceCatalogEntry[] };
    signed: boolean;
    requirements: OnboardingSessionJson["requirements"];
    /** The fields underwriting asked for in this round, answered or not (the portal's steps). */
    asked: string[];
    /** The merchant's payout settings (lib/domain/payouts/settings.ts). */
    payouts: { automatic: boolean; schedule: PayoutSchedule };
  },
): OnboardingSessionJson {
  const serialized = serializeMerchant(merchant, isv, facts.requirements, facts.payouts);
  const branding = isv.defaults as MerchantDefaults;
  const sig = facts.signed ? merchant.agreement : null;
  return {
    object: "onboarding_session",
    merchant_id: merchant.id,
    lead_onboarding_status: merchant.status,
    phone: merchant.phone ?? null,
    merchant: serialized.merchant as OnboardingSessionJson["merchant"],
    device: serialized.device ?? null,
    device_selection: merchant.deviceSelection,
    branding,
    steps: stepProgress(
      facts.problems.map((p) => p.param),
      facts.asked,
    ),
    requirements: facts.requirements,
    verification: serialized.verification,
    device_options: facts.device.catalog,
    device_selection_required: facts.device.required,
    allow_skip_device_selection: facts.device.skippable,
    return_url: link.returnUrl ?? branding.redirect_url ?? null,
    expires_at: link.expiresAt.toISOString(),
    agreement: sig
      ? { signed: true, name: sig.name, signed_at: sig.signed_at }
      : { signed: false, name: null, signed_at: null },
  };
}
