import { redirect } from "next/navigation";

import { loadWizardSession } from "@/app/(onboarding)/onboarding/load-session";
import { SessionMissing } from "@/components/onboarding/session-missing";
import { isOpen } from "@/lib/domain/merchants/status";
import { firstIncompleteStep } from "@/lib/onboarding/steps";

// /onboarding: resume at the first incomplete step.
export default async function OnboardingIndex() {
  const loaded = await loadWizardSession();
  if (!loaded) return <SessionMissing />;
  const { session } = loaded;
  if (!isOpen(session.lead_onboarding_status)) redirect("/onboarding/complete");
  redirect(`/onboarding/${firstIncompleteStep(session)}`);
}
