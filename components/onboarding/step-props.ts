import type { AgreementDocument } from "@/lib/agreement/agreement-text";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

/** What the wizard hands every step. */
export type StepProps = {
  session: OnboardingSessionJson;
  onSaved: (s: OnboardingSessionJson) => void;
  nextHref: string;
  agreement?: AgreementDocument | null;
};
