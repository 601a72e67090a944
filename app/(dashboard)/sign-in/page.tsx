import { getTranslations } from "next-intl/server";

import { SignInForm } from "@/components/dashboard/sign-in-form";
import { env } from "@/lib/env";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("signInTitle") };
}

export default async function SignInPage() {
  const t = await getTranslations("dashboard");
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-16">
      {env.APP_ENV === "sandbox" ? (
        <p className="mb-3">
          <span
            className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
            data-testid="sandbox-badge"
          >
            {t("sandboxBadge")}
          </span>{" "}
          <span className="text-sm text-muted">{t("sandboxNote")}</span>
        </p>
      ) : null}
      <h1 className="text-2xl font-semibold">{t("signInTitle")}</h1>
      <SignInForm />
    </main>
  );
}
