import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { FactorSetup } from "@/components/dashboard/factors/factor-setup";
import { SignInShell } from "@/components/dashboard/sign-in-shell";
import { signOutAction } from "@/lib/actions/sign-in";
import { skipEnrolmentAction } from "@/lib/actions/sign-in-steps";
import { cookieMember } from "@/lib/dashboard/session";
import { factorRequired } from "@/lib/domain/team/factors";

export async function generateMetadata() {
  return { title: (await getTranslations("security"))("enrolTitle") };
}

// Setting up the second factor at the sign-in (docs/reference.md section 23): owners and admins
// before anything else; an invited member of another role may skip it for now.
export default async function EnrolPage() {
  const found = await cookieMember();
  if (found?.member.stage === "complete") redirect("/dashboard");
  if (!found || found.member.stage !== "enrol") redirect("/sign-in");
  const t = await getTranslations("security");
  const team = await getTranslations("team");
  const required = factorRequired(found.member.role);
  return (
    <SignInShell>
      <h1 className="text-2xl font-semibold">{t("enrolTitle")}</h1>
      <p className="mt-2">
        {required ? t("enrolRequired", { role: team(`roles.${found.member.role}`) }) : t("enrolOptional")}
      </p>
      <FactorSetup mode="sign-in" />
      <div className="mt-6 flex flex-wrap gap-4">
        {required ? null : (
          <form action={skipEnrolmentAction}>
            <button type="submit" className="underline">
              {t("skip")}
            </button>
          </form>
        )}
        <form action={signOutAction}>
          <button type="submit" className="underline">
            {t("startOver")}
          </button>
        </form>
      </div>
    </SignInShell>
  );
}
