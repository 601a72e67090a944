import { getTranslations } from "next-intl/server";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { reportChangeAction } from "@/lib/actions/home";
import { getDatabase } from "@/lib/db/client";
import { getAccount } from "@/lib/domain/accounts/get-account";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { readReportLink } from "@/lib/domain/home/change-notices";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("reportTitle") };
}

// /home/report/{token}: a change notice's "this wasn't me". Opening it changes nothing (mail scanners
// open links); its button freezes the payouts and signs everyone out (lib/domain/home/change-notices.ts).
export default async function ReportChangePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ done?: string; invalid?: string }>;
}) {
  const t = await getTranslations("merchantHome");
  const { token } = await params;
  const { done, invalid } = await searchParams;
  const { db } = await getDatabase();
  // Used, or ended by a later use or the operator's release: the page says so before any button.
  const report = await readReportLink(db, token);
  const live = report?.live ?? false;
  const isv = report ? await getAccount(db, report.isvAccountId).catch(() => null) : null;
  return (
    <BrandShell branding={isv ? brandOf(isv) : { display_name: t("title") }} footerNote={t("title")}>
      <h1 className="text-2xl font-semibold">{t("reportTitle")}</h1>
      {report && done && !invalid ? (
        <p role="status" className="mt-4 rounded-lg border-2 border-primary bg-card p-3" data-testid="report-done">
          {t("reportDone")}
        </p>
      ) : !report || !live || invalid ? (
        <p role="alert" className="mt-4 rounded-lg border border-danger bg-card p-3 text-danger">
          {t("reportInvalid")}
        </p>
      ) : (
        <form action={reportChangeAction.bind(null, token)} className="mt-4">
          <p>{t(`reportIntro_${report.change}`)}</p>
          <button type="submit" className="mt-4 rounded-lg bg-danger px-4 py-2.5 font-semibold text-white">
            {t("reportAction")}
          </button>
        </form>
      )}
    </BrandShell>
  );
}
