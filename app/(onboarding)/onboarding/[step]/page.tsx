import { notFound, redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getLocale } from "next-intl/server";

import { loadWizardSession } from "@/app/(onboarding)/onboarding/load-session";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { SessionMissing } from "@/components/onboarding/session-missing";
import { Wizard } from "@/components/onboarding/wizard";
import { getDatabase } from "@/lib/db/client";
import { isOpen } from "@/lib/domain/merchants/status";
import { getAgreement } from "@/lib/domain/onboarding/get-agreement";
import { isStepId, resolveStep } from "@/lib/onboarding/steps";

export async function generateMetadata({ params }: { params: Promise<{ step: string }> }) {
  const { step } = await params;
  const t = await getTranslations("wizard");
  return { title: isStepId(step) ? `${t(`steps.${step}`)} · ${t("title")}` : t("title") };
}

// /onboarding/<step>: one wizard step. A deep link past the first incomplete step is brought back.
export default async function StepPage({ params }: { params: Promise<{ step: string }> }) {
  const { step } = await params;
  if (!isStepId(step)) notFound();
  const loaded = await loadWizardSession();
  if (!loaded) return <SessionMissing />;
  const { session, principal } = loaded;
  if (!isOpen(session.lead_onboarding_status)) redirect("/onboarding/complete");
  // A deep link past the first incomplete step, or (in the portal) to a step with nothing asked of it, is brought back.
  const resolved = resolveStep(session, step);
  if (!resolved) notFound();
  if (resolved.redirect) redirect(`/onboarding/${resolved.step}`);

  let agreement = null;
  if (step === "agreement") {
    const { db } = await getDatabase();
    agreement = (await getAgreement(db, principal, (await getLocale()) as "en" | "es")).document;
  }
  return (
    <BrandShell branding={session.branding}>
      <Wizard step={step} initialSession={session} agreement={agreement} renderedAt={Date.now()} />
    </BrandShell>
  );
}
