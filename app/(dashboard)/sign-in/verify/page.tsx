import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { VerifyForm } from "@/components/dashboard/factors/verify-form";
import { SignInShell } from "@/components/dashboard/sign-in-shell";
import { signOutAction } from "@/lib/actions/sign-in";
import { cookieMember } from "@/lib/dashboard/session";
import { memberFactors } from "@/lib/domain/team/factors";

export async function generateMetadata() {
  return { title: (await getTranslations("security"))("verifyTitle") };
}

// The sign-in's second step (docs/reference.md section 23): the password was right; the member's
// app code, a recovery code or a passkey finishes it.
export default async function VerifyPage() {
  const found = await cookieMember();
  if (!found || found.member.stage !== "second_factor") redirect("/sign-in");
  const factors = await memberFactors(found.db, found.member.userId);
  const t = await getTranslations("security");
  return (
    <SignInShell>
      <h1 className="text-2xl font-semibold">{t("verifyTitle")}</h1>
      <p className="mt-2">{t("verifyIntro")}</p>
      <VerifyForm
        hasApp={factors.some((f) => f.kind === "totp")}
        hasPasskey={factors.some((f) => f.kind === "passkey")}
      />
      <form action={signOutAction} className="mt-6">
        <button type="submit" className="underline">
          {t("startOver")}
        </button>
      </form>
    </SignInShell>
  );
}
