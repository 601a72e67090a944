"use server";
import { revalidatePath } from "next/cache";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getLocale } from "next-intl/server";

import { DASHBOARD_COOKIE, firstPartyCookie } from "@/lib/auth/cookies";
import { CLIENT_ADDRESS_HEADER } from "@/lib/auth/sign-in-limiter";
import { asIsvUser, type IsvMember } from "@/lib/dashboard/session";
import { getDatabase } from "@/lib/db/client";
import { openSession } from "@/lib/domain/accounts/sign-in";
import { acceptInvitation, inviteMember, revokeInvitation } from "@/lib/domain/team/invitations";
import {
  changeRole,
  removeMember,
  resetMemberFactors,
  setSupportRefundLimit,
  type TeamCaller,
} from "@/lib/domain/team/members";
import { endOtherSessions } from "@/lib/domain/team/sessions";
import type { Locale } from "@/lib/i18n/locales";
import { typedDollarsToCents } from "@/lib/money";

import { attempt } from "./result";
import { sensitiveChange } from "./sensitive-change";

// The Team page's changes (docs/reference.md section 23): owners only, from a sign-in of the last
// 15 minutes; each refusal in words for the form.

const callerOf = (member: IsvMember): TeamCaller => ({
  accountId: member.account.id,
  userId: member.userId,
  role: member.role,
});

/** A team change: owners, from a fresh sign-in (lib/actions/sensitive-change.ts). */
const teamChange = <T>(work: (member: IsvMember) => Promise<T>) =>
  sensitiveChange("team:write", "/dashboard/team", work);

export async function inviteMemberAction(input: { email: string; role: string }) {
  const locale = (await getLocale()) as Locale;
  return teamChange(async (member) => {
    const made = await inviteMember(member.db, callerOf(member), { ...input, locale });
    return made.email;
  });
}

export async function revokeInvitationAction(id: string) {
  return teamChange((member) => revokeInvitation(member.db, callerOf(member), id));
}

export async function changeRoleAction(memberId: string, role: string) {
  return teamChange((member) => changeRole(member.db, callerOf(member), memberId, role));
}

export async function removeMemberAction(memberId: string) {
  return teamChange((member) => removeMember(member.db, callerOf(member), memberId));
}

/** A member lost its factor: its factors, recovery codes and sessions go; it sets one up again. */
export async function resetFactorsAction(memberId: string) {
  return teamChange((member) => resetMemberFactors(member.db, callerOf(member), memberId));
}

export async function refundLimitAction(dollars: string) {
  return teamChange((member) => setSupportRefundLimit(member.db, callerOf(member), typedDollarsToCents(dollars)));
}

/** "Sign out everywhere else": every other session of the member ends; this one stays. */
export async function endOtherSessionsAction() {
  return asIsvUser("account:read", async (member) => {
    const ended = await endOtherSessions(
      member.db,
      { accountId: member.account.id, userId: member.userId },
      member.sessionId,
    );
    revalidatePath("/dashboard/settings", "page");
    return ended;
  });
}

export type AcceptState = { error: "name" | "password" | "mismatch" | "invalid" | "taken" | null };

/** Accepting an invitation: the member made, signed in, on to the dashboard. */
export async function acceptInvitationAction(_prev: AcceptState, form: FormData): Promise<AcceptState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) return { error: "mismatch" };
  const { db } = await getDatabase();
  const done = await attempt(() => acceptInvitation(db, token, { name: form.get("name"), password }));
  if (!done.ok) {
    if (done.param === "name") return { error: "name" };
    if (done.param === "password") return { error: "password" };
    return { error: done.code === "email_taken" ? "taken" : "invalid" };
  }
  const head = await headers();
  const session = await openSession(
    db,
    { id: done.value.userId, accountId: done.value.accountId },
    { userAgent: head.get("user-agent"), address: head.get(CLIENT_ADDRESS_HEADER) },
    // The invitee sets up its second factor next (a role that does not require one may skip it).
    { stage: "enrol" },
  );
  (await cookies()).set(DASHBOARD_COOKIE, session.access_token, firstPartyCookie(session.expires_in));
  redirect("/sign-in/enrol");
}
