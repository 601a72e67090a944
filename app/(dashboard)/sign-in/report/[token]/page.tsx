import { getTranslations } from "next-intl/server";

import { SignInShell } from "@/components/dashboard/sign-in-shell";
import { reportAccountChangeAction } from "@/lib/actions/account-report";
import { getDatabase } from "@/lib/db/client";
import { readAccountReport } from "@/lib/domain/accounts/payout-account-change";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard.accountReport"))("title") };
}

// /sign-in/report/{token}: the "this wasn't us" link e-mailed to every user of an ISV when its payout
// bank account changes. Opening it changes nothing (mail scanners open links); its button freezes the
// ISV's payouts, once (lib/domain/accounts/payout-account-change.ts).
export default async function AccountReportPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ done?: string }>;
}) {
  const t = await getTranslations("dashboard.accountReport");
  const { token } = await params;
  const { done } = await searchParams;
  const { db } = await getDatabase();
  const report = done ? null : await readAccountReport(db, token.slice(0, 100));
  return (
    <SignInShell>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {done ? (
        <p role="status" className="mt-4 rounded-lg border-2 border-primary bg-card p-3" data-testid="report-done">
          {t("done")}
        </p>
      ) : !report ? (
        <p role="alert" className="mt-4 rounded-lg border border-danger bg-card p-3 text-danger">
          {t("invalid")}
        </p>
      ) : (
        <form action={reportAccountChangeAction.bind(null, token.slice(0, 100))} className="mt-4">
          <p>{t("intro", { isv: report.isv, last4: report.last4 })}</p>
          <button type="submit" className="mt-4 min-h-11 rounded-lg bg-danger px-4 py-2.5 font-semibold text-white">
            {t("action")}
          </button>
        </form>
      )}
    </SignInShell>
  );
}
