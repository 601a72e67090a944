import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { SignInForm } from "@/components/dashboard/sign-in-form";
import { SignInShell } from "@/components/dashboard/sign-in-shell";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("signInTitle") };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ reset?: string }> }) {
  const t = await getTranslations("dashboard");
  const reset = (await searchParams).reset === "1";
  return (
    <SignInShell>
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
    </SignInShell>
  );
}
