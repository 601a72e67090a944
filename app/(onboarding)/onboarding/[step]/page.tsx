import { notFound, redirect } from "next/navigation";
import { isOpen } from "@/lib/domain/merchants/status";
import { getTranslations } from "next-intl/server";
import { loadWizardSession } from "@/lib/onboarding/load-session";
import { onboardingSteps, type StepId } from "@/lib/onboarding/steps";
import { SessionMissing } from "@/components/onboarding/session-missing";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { Wizard } from "@/components/onboarding/wizard";
import { agreementFor } from "@/lib/agreement/agreement-text";
import { getDatabase } from "@/lib/db/client";
import { getSessionRows } from "@/lib/domain/onboarding/session";
import { getLocale } from "next-intl/server";

export async function generateMetadata({ params }: { params: Promise<{ step: string }> }) {
  const { step } = await params;
  const t = await getTranslations("wizard");
  const known = onboardingSteps.some((s) => s.id === step);
  return { title: known ? `${t(`steps.${step as StepId}`)} · ${t("title")}` : t("title") };
}

// /onboarding/<step>: one wizard step. A deep link past the first incomplete step is brought back.
export default async function StepPage({ params }: { params: Promise<{ step: string }> }) {
  const { step } = await params;
  if (!onboardingSteps.some((s) => s.id === step)) notFound();
  const loaded = await loadWizardSession();
  if (!loaded) return <SessionMissing />;
  const { session, principal } = loaded;
  if (!isOpen(session.lead_onboarding_status)) redirect("/onboarding/complete");
  const order = onboardingSteps.map((s) => s.id as string);
  const firstIncomplete = session.steps.find((s) => !s.complete)?.id ?? "agreement";
  if (order.indexOf(step) > order.indexOf(firstIncomplete)) redirect(`/onboarding/${firstIncomplete}`);
  // In the portal, a step with nothing asked for has nothing to show: go to what is asked.
  const requested = session.requirements.errors.map((e) => e.field);
  const fields = onboardingSteps.find((s) => s.id === step)!.fields as readonly string[];
  if (requested.length && fields.length && !requested.some((r) => fields.some((f) => r === `merchant.${f}` || r.startsWith(`merchant.${f}.`)))) {
    redirect(`/onboarding/${firstIncomplete}`);
  }

  let agreement = null;
  if (step === "agreement") {
    const { db } = await getDatabase();
    const { merchant, isv } = await getSessionRows(db, principal);
    agreement = agreementFor(merchant, isv, (await getLocale()) as "en" | "es");
  }
  return (
    <BrandShell branding={session.branding}>
      <Wizard step={step as StepId} initialSession={session} agreement={agreement} />
    </BrandShell>
  );
}
