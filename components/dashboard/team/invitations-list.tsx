"use client";
import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";

import { revokeInvitationAction } from "@/lib/actions/team";
import type { Role } from "@/lib/auth/permissions";

import { ChangeMessage, useTeamChange } from "./use-team-change";

export type InvitationView = { id: string; email: string; role: Role; expiresAt: Date };

/** The invitations still open: address, role, when the link stops working; an owner withdraws one. */
export function InvitationsList({ invitations, manage }: { invitations: InvitationView[]; manage: boolean }) {
  const t = useTranslations("team");
  const format = useFormatter();
  const router = useRouter();
  const { message, pending, run } = useTeamChange();
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title" className="text-lg font-semibold">
        {t("invitations.title")}
      </h2>
      {invitations.length === 0 ? (
        <p className="mt-1">{t("invitations.none")}</p>
      ) : (
        <ul className="mt-2 space-y-2" data-testid="team-invitations">
          {invitations.map((i) => (
            <li
              key={i.id}
              data-invitation={i.email}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-line bg-card p-3 text-sm"
            >
              <span className="break-all font-medium">{i.email}</span>
              <span>{t(`roles.${i.role}`)}</span>
              <span className="text-muted">
                {t("invitations.expires", { when: format.dateTime(i.expiresAt, { dateStyle: "medium" }) })}
              </span>
              {manage ? (
                <button
                  type="button"
                  disabled={pending}
                  aria-label={t("invitations.revokeLabel", { email: i.email })}
                  onClick={() =>
                    run(
                      () => revokeInvitationAction(i.id),
                      () => {
                        router.refresh();
                        return t("saved");
                      },
                    )
                  }
                  className="ml-auto rounded border border-line px-3 py-1"
                >
                  {t("invitations.revoke")}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ChangeMessage message={message} />
    </section>
  );
}
