import { getTranslations } from "next-intl/server";

import { SignInForm } from "@/components/dashboard/sign-in-form";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("signInTitle") };
}

export default async function SignInPage() {
  const t = await getTranslations("dashboard");
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-16">
      <h1 className="text-2xl font-semibold">{t("signInTitle")}</h1>
      <SignInForm />
    </main>
  );
}
