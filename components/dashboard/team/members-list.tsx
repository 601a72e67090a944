"use client";
import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";

import { inputClass } from "@/components/ui/input-class";
import { changeRoleAction, removeMemberAction, resetFactorsAction } from "@/lib/actions/team";
import { type Role, roles } from "@/lib/auth/permissions";

import { ChangeMessage, useTeamChange } from "./use-team-change";

export type MemberView = { id: string; name: string | null; email: string; role: Role; createdAt: Date };

/**
 * The team: a table's columns on a wide screen, one card per member on a phone (the same list).
 * An owner changes a role from its select and removes a member; others read.
 */
export function MembersList({ members, selfId, manage }: { members: MemberView[]; selfId: string; manage: boolean }) {
  const t = useTranslations("team");
  const format = useFormatter();
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title" className="text-lg font-semibold">
        {t("members")}
      </h2>
      <div
        aria-hidden="true"
        className="mt-2 hidden border-b border-line py-1 text-sm font-medium text-muted sm:grid sm:grid-cols-[1.2fr_1.5fr_1fr_0.8fr_10rem] sm:gap-3"
      >
        <span>{t("name")}</span>
        <span>{t("email")}</span>
        <span>{t("role")}</span>
        <span>{t("joined")}</span>
        <span>{manage ? t("actions") : ""}</span>
      </div>
      <ul className="mt-2 space-y-3 sm:mt-0 sm:space-y-0" data-testid="team-members">
        {members.map((m) => (
          <MemberRow
            key={m.id}
            member={m}
            self={m.id === selfId}
            manage={manage}
            lastOwner={m.role === "owner" && members.filter((o) => o.role === "owner").length <= 1}
            joined={format.dateTime(m.createdAt, { dateStyle: "medium" })}
          />
        ))}
      </ul>
    </section>
  );
}

function MemberRow({
  member,
  self,
  manage,
  lastOwner,
  joined,
}: {
  member: MemberView;
  self: boolean;
  manage: boolean;
  /** The team's only owner: it can be neither removed nor leave (the team keeps an owner). */
  lastOwner: boolean;
  joined: string;
}) {
  const t = useTranslations("team");
  const router = useRouter();
  const { message, pending, run } = useTeamChange();
  const who = member.name ?? member.email;
  const statusId = `member-status-${member.id}`;
  return (
    <li
      data-member={member.email}
      className="rounded-lg border border-line bg-card p-3 text-sm sm:grid sm:grid-cols-[1.2fr_1.5fr_1fr_0.8fr_10rem] sm:items-center sm:gap-3 sm:rounded-none sm:border-0 sm:border-b sm:bg-transparent sm:px-0 sm:py-2"
    >
      <p className="font-medium">
        {member.name ?? <span className="text-muted">{t("noName")}</span>}{" "}
        {self ? <span className="text-muted">{t("you")}</span> : null}
      </p>
      <p className="break-all text-muted sm:text-ink">{member.email}</p>
      <div className="mt-2 sm:mt-0">
        {manage ? (
          <>
            <label htmlFor={`role-${member.id}`} className="sr-only">
              {t("roleOf", { name: who })}
            </label>
            <select
              id={`role-${member.id}`}
              value={member.role}
              disabled={pending}
              aria-describedby={statusId}
              onChange={(e) =>
                run(
                  () => changeRoleAction(member.id, e.target.value),
                  () => {
                    router.refresh();
                    return t("saved");
                  },
                )
              }
              className={inputClass("mt-0")}
            >
              {roles.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </select>
          </>
        ) : (
          <span>{t(`roles.${member.role}`)}</span>
        )}
      </div>
      <p className="mt-1 text-muted sm:mt-0">{joined}</p>
      <div className="mt-2 sm:mt-0">
        {manage && !lastOwner ? (
          <button
            type="button"
            disabled={pending}
            aria-label={self ? t("leave") : t("removeLabel", { name: who })}
            onClick={() => {
              if (!window.confirm(t("removeConfirm", { name: who }))) return;
              run(
                () => removeMemberAction(member.id),
                () => {
                  router.refresh();
                  return t("saved");
                },
              );
            }}
            className="whitespace-nowrap rounded border border-danger px-3 py-1 text-danger"
          >
            {self ? t("leave") : t("remove")}
          </button>
        ) : null}
        {manage && !self ? (
          <button
            type="button"
            disabled={pending}
            aria-label={t("resetFactorsLabel", { name: who })}
            onClick={() => {
              if (!window.confirm(t("resetFactorsConfirm", { name: who }))) return;
              run(
                () => resetFactorsAction(member.id),
                () => t("factorsReset"),
              );
            }}
            className="mt-2 whitespace-nowrap rounded border border-line px-3 py-1 text-xs"
          >
            {t("resetFactors")}
          </button>
        ) : null}
      </div>
      <div className="sm:col-span-5">
        <ChangeMessage id={statusId} message={message} />
      </div>
    </li>
  );
}
