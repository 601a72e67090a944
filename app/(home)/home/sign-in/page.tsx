import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";

import { HomeSignInForm } from "@/components/home/home-sign-in-form";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { getDatabase } from "@/lib/db/client";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { isvForHost } from "@/lib/domain/accounts/isv-for-host";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("signInTitle") };
}

// /home/sign-in: where a merchant without a fresh link asks for one by e-mail (and where a used or
// expired link lands, saying so).
export default async function HomeSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ link?: string; approved?: string }>;
}) {
  const t = await getTranslations("merchantHome");
  const { link, approved } = await searchParams;
  // On an ISV's own domain, its brand; on the service's host, the plain frame named for what it is.
  const { db } = await getDatabase();
  const isv = await isvForHost(db, (await headers()).get("host") ?? "");
  return (
    <BrandShell branding={isv ? brandOf(isv) : { display_name: t("title") }} footerNote={t("title")}>
      <h1 className="text-2xl font-semibold">{t("signInTitle")}</h1>
      {link === "used" ? (
        <p role="alert" className="mt-4 rounded-lg border border-danger bg-card p-3 text-danger">
          {t("linkUsed")}
        </p>
      ) : null}
      {approved ? (
        <p role="status" className="mt-4 rounded-lg border-2 border-primary bg-card p-3">
          {t("approvedSignIn")}
        </p>
      ) : (
        <p className="mt-4">{t("signInIntro")}</p>
      )}
      <HomeSignInForm />
    </BrandShell>
  );
}
