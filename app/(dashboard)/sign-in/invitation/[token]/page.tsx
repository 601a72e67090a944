import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { SignInShell } from "@/components/dashboard/sign-in-shell";
import { AcceptInvitationForm } from "@/components/dashboard/team/accept-invitation-form";
import { getDatabase } from "@/lib/db/client";
import { invitationByToken } from "@/lib/domain/team/invitations";

export async function generateMetadata() {
  return { title: (await getTranslations("team"))("title") };
}

// An invitation's page (docs/reference.md section 23): which team, which role, for which address;
// the name and a password. Opening it uses nothing up (a mail scanner may open it first).
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const token = (await params).token.slice(0, 100);
  const t = await getTranslations("invitation");
  const team = await getTranslations("team");
  const { db } = await getDatabase();
  const invitation = await invitationByToken(db, token);
  return (
    <SignInShell>
      {invitation ? (
        <>
          <h1 className="text-2xl font-semibold">{t("title", { isv: invitation.isv })}</h1>
          <p className="mt-2">
            {t("intro", { isv: invitation.isv, role: team(`roles.${invitation.role}`), email: invitation.email })}
          </p>
          <AcceptInvitationForm token={token} />
        </>
      ) : (
        <>
          <h1 className="text-2xl font-semibold">{t("invalidTitle")}</h1>
          <p className="mt-2">{t("invalid")}</p>
          <Link href="/sign-in" className="mt-4 inline-block underline">
            {t("signIn")}
          </Link>
        </>
      )}
    </SignInShell>
  );
}
