import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { getDatabase } from "@/lib/db/client";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { isvForHost } from "@/lib/domain/accounts/isv-for-host";

// An unknown payment link (or another ISV's request on this ISV's domain): a 404 that says so, on the
// host's brand when the host is an ISV's own domain, in the service's plain shell otherwise.
export default async function PaymentNotFound() {
  const t = await getTranslations("pay");
  const { db } = await getDatabase();
  const isv = await isvForHost(db, (await headers()).get("host") ?? "");
  return (
    <BrandShell branding={isv ? brandOf(isv) : null} footerNote={t("footer")} narrow>
      <div role="status" className="rounded-lg border border-line bg-card p-6">
        <h1 className="text-2xl font-semibold">{t("notFoundTitle")}</h1>
        <p className="mt-3">{t("notFoundBody")}</p>
      </div>
    </BrandShell>
  );
}
