import { getTranslations } from "next-intl/server";

import { loadWizardSession } from "@/app/(onboarding)/onboarding/load-session";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { ReturnRedirect } from "@/components/onboarding/return-redirect";
import { getDatabase } from "@/lib/db/client";
import { getSessionRows, returnTarget } from "@/lib/domain/onboarding/session";

export async function generateMetadata() {
  const t = await getTranslations("wizard");
  return { title: t("submittedTitle") };
}

// The branded confirmation after submitting; then the browser goes to the ISV's return URL.
export default async function CompletePage({ searchParams }: { searchParams: Promise<{ to?: string }> }) {
  const t = await getTranslations("wizard");
  const loaded = await loadWizardSession();
  const branding = loaded?.session.branding ?? null;
  const name = branding?.display_name ?? t("title");
  const { to } = await searchParams;
  // Only the URL the server builds for this session may be the target: no open redirect.
  const target = loaded ? returnTarget(await getSessionRows((await getDatabase()).db, loaded.principal), to) : null;
  // Say what actually happened: underwriting may already have decided (in sandbox, within seconds).
  const status = loaded?.session.lead_onboarding_status;
  const [title, body] =
    status === "APPROVED"
      ? [t("approvedTitle"), t("approvedBody", { name })]
      : status === "FAILED"
        ? [t("declinedTitle"), t("declinedBody", { name })]
        : status === "IN_PROGRESS" || status === "NOT_STARTED"
          ? [t("moreInfoTitle"), t("moreInfoBody", { name })]
          : [t("submittedTitle"), t("submittedBody", { name })];
  return (
    <BrandShell branding={branding}>
      <div role="status" className="rounded-lg border border-line bg-card p-6">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-3">{body}</p>
        {target ? <ReturnRedirect to={target} label={t("continue")} note={t("redirecting", { name })} /> : null}
      </div>
    </BrandShell>
  );
}
