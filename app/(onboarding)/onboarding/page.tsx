import { redirect } from "next/navigation";
import { loadWizardSession } from "@/lib/onboarding/load-session";
import { SessionMissing } from "@/components/onboarding/session-missing";

// /onboarding: resume at the first incomplete step.
export default async function OnboardingIndex() {
  const loaded = await loadWizardSession();
  if (!loaded) return <SessionMissing />;
  const { session } = loaded;
  if (session.lead_onboarding_status !== "IN_PROGRESS" && session.lead_onboarding_status !== "NOT_STARTED") redirect("/onboarding/complete");
  const next = session.steps.find((s) => !s.complete) ?? session.steps.at(-1)!;
  redirect(`/onboarding/${next.id}`);
}
