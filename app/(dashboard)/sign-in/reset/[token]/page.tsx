import { getTranslations } from "next-intl/server";

import { ResetPasswordForm } from "@/components/dashboard/password-reset-forms";
import { SignInShell } from "@/components/dashboard/sign-in-shell";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard.reset"))("resetTitle") };
}

// A reset link's page: a new password, twice. The link is checked when the form is sent (a link
// opened by a mail scanner is not used up by opening it).
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("dashboard.reset");
  return (
    <SignInShell>
      <h1 className="text-2xl font-semibold">{t("resetTitle")}</h1>
      <ResetPasswordForm token={token.slice(0, 100)} />
    </SignInShell>
  );
}
