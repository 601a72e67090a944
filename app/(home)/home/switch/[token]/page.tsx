import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { firstPartyCookie, HOME_COOKIE } from "@/lib/auth/cookies";
import { HOME_SESSION_TTL_SECONDS, homeSessionOf } from "@/lib/auth/home-session";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { getDatabase } from "@/lib/db/client";
import { getAccount } from "@/lib/domain/accounts/get-account";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { peekLoginLink, redeemLoginLink } from "@/lib/domain/home/login";
import { businessName } from "@/lib/merchants/facts";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("switchTitle") };
}

/** "Continue": the link is used only now, and the browser's session becomes the link's merchant's. */
async function switchAction(token: string) {
  "use server";
  const { db } = await getDatabase();
  const request = await headers();
  const used = await redeemLoginLink(db, token, request.get(CLIENT_ADDRESS_HEADER), request.get("host") ?? "");
  if (!used) redirect("/home/sign-in?link=used");
  (await cookies()).set(HOME_COOKIE, used.session, firstPartyCookie(HOME_SESSION_TTL_SECONDS));
  redirect("/home");
}

// /home/switch/{token}: a sign-in link opened in a browser already signed in to another merchant.
// Nothing changes until the person says which business it means to open.
export default async function SwitchPage({ params }: { params: Promise<{ token: string }> }) {
  const t = await getTranslations("merchantHome");
  const { token } = await params;
  const { db } = await getDatabase();
  const target = /^[0-9A-Za-z]{20,64}$/.test(token) ? await peekLoginLink(db, token) : null;
  if (!target) redirect("/home/sign-in?link=used");
  const current = await homeSessionOf(db, (await cookies()).get(HOME_COOKIE)?.value);
  const isv = await getAccount(db, target.isvAccountId);
  // Two businesses of one name are told apart by their ids.
  const same = current !== null && businessName(current.merchant) === businessName(target);
  const next = `${businessName(target) || target.id}${same ? ` (${target.id})` : ""}`;
  const now = current
    ? `${businessName(current.merchant) || current.merchant.id}${same ? ` (${current.merchant.id})` : ""}`
    : "";
  return (
    <BrandShell branding={brandOf(isv)} footerNote={t("title")}>
      <h1 className="text-2xl font-semibold">{t("switchTitle")}</h1>
      <p className="mt-4">
        {current
          ? t("switchIntro", {
              current: businessName(current.merchant) || current.merchant.id,
              next: businessName(target) || target.id,
            })
          : t("switchIntroSignedOut", { next: businessName(target) || target.id })}
      </p>
      <form action={switchAction.bind(null, token)} className="mt-4 flex flex-wrap gap-3">
        <button type="submit" className="rounded-lg bg-primary px-4 py-2.5 font-semibold text-on-primary">
          {t("switchAction", { next })}
        </button>
        {current ? (
          <a href="/home" className="rounded-lg border border-line px-4 py-2.5 font-semibold">
            {t("switchStay", { current: now })}
          </a>
        ) : null}
      </form>
    </BrandShell>
  );
}
