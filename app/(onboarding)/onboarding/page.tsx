import { redirect } from "next/navigation";
import { isOpen } from "@/lib/domain/merchants/status";
import { loadWizardSession } from "@/lib/onboarding/load-session";
import { SessionMissing } from "@/components/onboarding/session-missing";

// /onboarding: resume at the first incomplete step.
export default async function OnboardingIndex() {
  const loaded = await loadWizardSession();
  if (!loaded) return <SessionMissing />;
  const { session } = loaded;
  if (!isOpen(session.lead_onboarding_status)) redirect("/onboarding/complete");
  const next = session.steps.find((s) => !s.complete) ?? session.steps.at(-1)!;
  redirect(`/onboarding/${next.id}`);
}
