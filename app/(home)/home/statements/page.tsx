import { getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { StatementLinks } from "@/components/payments/statement-links";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { homeOverview } from "@/lib/domain/home/overview";
import { requireMerchant } from "@/lib/home/session";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("statements") };
}

// /home/statements: the monthly statements, each as PDF and CSV (the embedded statements component's page).
export default async function HomeStatements() {
  const { db, merchant, isv } = await requireMerchant({ components: ["statements"] });
  const t = await getTranslations("dashboard");
  const overview = await homeOverview(db, merchant);
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="documents">
      <h1 className="text-2xl font-semibold">{t("statements")}</h1>
      <StatementLinks statements={overview.statements} href={(id) => `/home/statements/${id}`} />
    </HomeShell>
  );
}
