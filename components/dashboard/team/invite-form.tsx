"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { inviteMemberAction } from "@/lib/actions/team";
import { type Role, roles } from "@/lib/auth/permissions";

import { ChangeMessage, useTeamChange } from "./use-team-change";

/** An owner invites an address with a role; the e-mail carries a link that works once, for 7 days. */
export function InviteForm() {
  const t = useTranslations("team");
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("support");
  const { message, pending, run } = useTeamChange();
  return (
    <section aria-labelledby="invite-title">
      <h2 id="invite-title" className="text-lg font-semibold">
        {t("invite.title")}
      </h2>
      <form
        className="mt-2 grid gap-3 rounded-lg border border-line bg-card p-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          run(
            () => inviteMemberAction({ email, role }),
            (sent) => {
              setEmail("");
              router.refresh();
              return t("invite.sent", { email: sent });
            },
          );
        }}
      >
        <div>
          <label htmlFor="invite-email" className="block text-sm font-medium">
            {t("invite.email")}
          </label>
          <input
            id="invite-email"
            type="email"
            required
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={message && !message.ok ? true : undefined}
            aria-describedby="invite-status"
            className={inputClass()}
          />
        </div>
        <div>
          <label htmlFor="invite-role" className="block text-sm font-medium">
            {t("invite.role")}
          </label>
          <select
            id="invite-role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            aria-describedby="invite-role-hint"
            className={inputClass()}
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {t(`roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("invite.submit")}
        </button>
        <p id="invite-role-hint" className="text-sm text-muted sm:col-span-3">
          {t(`roleHints.${role}`)}
        </p>
        <div className="sm:col-span-3">
          <ChangeMessage id="invite-status" message={message} />
        </div>
      </form>
    </section>
  );
}
