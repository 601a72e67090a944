import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { ForgotPasswordForm } from "@/components/dashboard/password-reset-forms";
import { SignInShell } from "@/components/dashboard/sign-in-shell";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard.reset"))("forgotTitle") };
}

// "Forgot your password?": a single-use link by e-mail (docs/reference.md section 23).
export default async function ForgotPasswordPage() {
  const t = await getTranslations("dashboard.reset");
  return (
    <SignInShell>
      <h1 className="text-2xl font-semibold">{t("forgotTitle")}</h1>
      <p className="mt-2 text-muted">{t("forgotIntro")}</p>
      <ForgotPasswordForm />
      <p className="mt-6">
        <Link href="/sign-in" className="underline">
          {t("backToSignIn")}
        </Link>
      </p>
    </SignInShell>
  );
}
