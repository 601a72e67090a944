import { getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { DisputesTable } from "@/components/payments/disputes-table";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listDisputes } from "@/lib/domain/disputes/list-disputes";
import { requireMerchant } from "@/lib/home/session";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("disputes");
  return { title: t("title") };
}

// /home/disputes: the merchant's disputes, newest first, with the days left to answer each.
export default async function HomeDisputesPage() {
  const { db, merchant, scope, isv } = await requireMerchant({ components: ["disputes", "payments"] });
  const t = await getTranslations("disputes");
  const { rows } = await listDisputes(db, scope, { limit: 100 });
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="disputes">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-2 max-w-prose">{t("intro")}</p>
      <div className="mt-5">
        <DisputesTable disputes={rows} href={(d) => `/home/disputes/${d.id}`} title={t("listTitle")} />
      </div>
    </HomeShell>
  );
}
