import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { SignInForm } from "@/components/dashboard/sign-in-form";
import { env } from "@/lib/env";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("signInTitle") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ reset?: string }> }) {
  const t = await getTranslations("dashboard");
  const reset = (await searchParams).reset === "1";
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
      {reset ? (
        <p role="status" className="mt-4 rounded-lg border border-line bg-card p-3">
          {t("reset.done")}
        </p>
      ) : null}
      <SignInForm />
      <p className="mt-6">
        <Link href="/sign-in/forgot" className="underline">
          {t("reset.forgot")}
        </Link>
      </p>
    </main>
  );
}
