import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";
import type { AgreementDocument } from "@/lib/agreement/agreement-text";

/** What the wizard hands every step. */
export type StepProps = { session: OnboardingSessionJson; onSaved: (s: OnboardingSessionJson) => void; nextHref: string; agreement?: AgreementDocument | null };
