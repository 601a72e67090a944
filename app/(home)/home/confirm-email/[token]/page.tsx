import { getTranslations } from "next-intl/server";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { confirmContactEmailAction } from "@/lib/actions/home";
import { getDatabase } from "@/lib/db/client";
import { getAccount } from "@/lib/domain/accounts/get-account";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { pendingContactOf } from "@/lib/domain/home/settings";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("confirmEmailTitle") };
}

// /home/confirm-email/{token}: the link sent to a new contact address. Opening it changes nothing;
// its button makes the address the contact's (lib/domain/home/settings.ts).
export default async function ConfirmEmailPage({
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
  const pending = done ? null : await pendingContactOf(db, token);
  const isvId = pending?.isvAccountId ?? null;
  const isv = isvId ? await getAccount(db, isvId).catch(() => null) : null;
  return (
    <BrandShell branding={isv ? brandOf(isv) : { display_name: t("title") }} footerNote={t("title")}>
      <h1 className="text-2xl font-semibold">{t("confirmEmailTitle")}</h1>
      {done ? (
        <p role="status" className="mt-4 rounded-lg border-2 border-primary bg-card p-3" data-testid="confirm-done">
          {t("confirmEmailDone")}{" "}
          <a className="font-semibold text-primary underline" href="/home/sign-in">
            {t("signInTitle")}
          </a>
        </p>
      ) : !pending || invalid ? (
        <p role="alert" className="mt-4 rounded-lg border border-danger bg-card p-3 text-danger">
          {t("confirmEmailInvalid")}
        </p>
      ) : (
        <form action={confirmContactEmailAction.bind(null, token)} className="mt-4">
          <p>{t("confirmEmailIntro", { email: pending.email })}</p>
          <button type="submit" className="mt-4 rounded-lg bg-primary px-4 py-2.5 font-semibold text-on-primary">
            {t("confirmEmailAction")}
          </button>
        </form>
      )}
    </BrandShell>
  );
}
