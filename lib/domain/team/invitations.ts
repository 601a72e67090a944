import { and, desc, eq, gt, isNull } from "drizzle-orm";

import { isRole, type Role } from "../../auth/permissions";
import { digestSecret, hashPassword } from "../../auth/secrets";
import { platformBranding } from "../../branding/platform";
import { clock } from "../../clock";
import { accounts, memberInvitations, users } from "../../db/schema";
import type { Db, DbOrTx } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import type { Locale } from "../../i18n/locales";
import { createId, randomBase62 } from "../../ids";
import { queueEmail } from "../../notifications/send-email";
import { memberInvitation } from "../../notifications/team-templates";
import { findUserByEmail } from "../accounts/find-user-by-email";
import { MIN_PASSWORD_LENGTH } from "../accounts/password-reset";
import { recordAudit } from "../audit/record-audit";
import { assertManager, type TeamCaller } from "./members";

// Invitations to an ISV's team (docs/reference.md section 23): an owner invites an address with a
// role; the e-mailed link works once, for 7 days; accepting it sets the member's name and password.

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** Open invitations an ISV may have at once (a mistyped address is revoked, not piled up). */
const OPEN_INVITATIONS = 50;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Invites `email` with `role` (409 `email_taken` when it is already on this team); an earlier open invitation to it is revoked. */
export async function inviteMember(
  db: Db,
  caller: TeamCaller,
  input: { email: unknown; role: unknown; locale: Locale },
  now = clock.now(),
) {
  assertManager(caller);
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  if (!EMAIL.test(email) || email.length > 254)
    throw new AppError("parameter_invalid", "An e-mail address is needed", { param: "email" });
  if (!isRole(input.role)) throw new AppError("parameter_invalid", "Choose a role", { param: "role" });
  const role: Role = input.role;
  // Already on this team: said. Someone else's member is not (an owner must not learn who uses
  // another ISV's dashboard): the invitation goes out, and its acceptance says the address is taken.
  const existing = await findUserByEmail(db, email);
  if (existing && existing.accountId === caller.accountId)
    throw new AppError("email_taken", "This address is already on your team", { param: "email" });
  const token = randomBase62(43);
  const id = createId("inv");
  await db.transaction(async (tx) => {
    // One open invitation per address and ISV: a new one replaces the old.
    await tx
      .update(memberInvitations)
      .set({ revokedAt: now })
      .where(and(eq(memberInvitations.accountId, caller.accountId), eq(memberInvitations.email, email), ...open(now)));
    const pending = await tx
      .select({ id: memberInvitations.id })
      .from(memberInvitations)
      .where(and(eq(memberInvitations.accountId, caller.accountId), ...open(now)));
    if (pending.length >= OPEN_INVITATIONS)
      throw new AppError("too_many_invitations", `At most ${OPEN_INVITATIONS} invitations may be open at once`);
    await tx.insert(memberInvitations).values({
      id,
      accountId: caller.accountId,
      email,
      role,
      invitedBy: caller.userId,
      tokenDigest: digestSecret(token),
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
    });
    const [isv] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, caller.accountId));
    const [inviter] = await tx
      .select({ name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, caller.userId));
    const message = memberInvitation({
      brand: platformBranding,
      locale: input.locale,
      isv: isv?.name ?? "",
      inviter: inviter?.name ?? inviter?.email ?? "",
      role,
      url: `${env.PUBLIC_BASE_URL}/sign-in/invitation/${token}`,
    });
    await queueEmail(tx, {
      accountId: caller.accountId,
      kind: "member_invitation",
      to: email,
      locale: input.locale,
      ...message,
    });
    await recordAudit(tx, {
      accountId: caller.accountId,
      action: "member.invited",
      resourceId: id,
      fields: ["email", "role"],
    });
  });
  return { id, email, role };
}

const open = (now: Date) => [
  isNull(memberInvitations.acceptedAt),
  isNull(memberInvitations.revokedAt),
  gt(memberInvitations.expiresAt, now),
];

/** The ISV's invitations still open, newest first. */
export function openInvitations(db: DbOrTx, accountId: string, now = clock.now()) {
  return db
    .select({
      id: memberInvitations.id,
      email: memberInvitations.email,
      role: memberInvitations.role,
      expiresAt: memberInvitations.expiresAt,
      createdAt: memberInvitations.createdAt,
    })
    .from(memberInvitations)
    .where(and(eq(memberInvitations.accountId, accountId), ...open(now)))
    .orderBy(desc(memberInvitations.createdAt));
}

/** Withdraws an open invitation; its link opens nothing after. Another ISV's: 404. */
export async function revokeInvitation(db: Db, caller: TeamCaller, id: unknown, now = clock.now()) {
  assertManager(caller);
  const ended = await db
    .update(memberInvitations)
    .set({ revokedAt: now })
    .where(and(eq(memberInvitations.id, String(id)), eq(memberInvitations.accountId, caller.accountId), ...open(now)))
    .returning({ id: memberInvitations.id });
  const [revoked] = ended;
  if (!revoked) throw new AppError("resource_missing", "No such invitation");
  await recordAudit(db, { accountId: caller.accountId, action: "member.invitation_revoked", resourceId: revoked.id });
}

const invalidInvitation = () =>
  new AppError("invitation_invalid", "This invitation was already used, withdrawn or has expired: ask for a new one");

/** What the invitation's page shows before it is accepted: the ISV, the address and the role. Unknown or spent: null. */
export async function invitationByToken(db: DbOrTx, token: string, now = clock.now()) {
  const [found] = await db
    .select({
      id: memberInvitations.id,
      email: memberInvitations.email,
      role: memberInvitations.role,
      accountId: memberInvitations.accountId,
      isv: accounts.name,
    })
    .from(memberInvitations)
    .innerJoin(accounts, eq(accounts.id, memberInvitations.accountId))
    .where(and(eq(memberInvitations.tokenDigest, digestSecret(token)), ...open(now)));
  return found ?? null;
}

/**
 * Accepts an invitation once: a member of the ISV with the invitation's role, its name and a new
 * password. Two acceptances racing: one wins (a conditional update). The caller signs the member in.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  input: { name: unknown; password: unknown },
  now = clock.now(),
) {
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name || name.length > 100)
    throw new AppError("parameter_invalid", "Your name is needed (at most 100 characters)", { param: "name" });
  const password = typeof input.password === "string" ? input.password : "";
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 256)
    throw new AppError("parameter_invalid", `A password has ${MIN_PASSWORD_LENGTH} to 256 characters`, {
      param: "password",
    });
  const invitation = await invitationByToken(db, token, now);
  if (!invitation) throw invalidInvitation();
  const passwordHash = await hashPassword(password);
  const userId = createId("usr");
  await db.transaction(async (tx) => {
    const taken = await tx
      .update(memberInvitations)
      .set({ acceptedAt: now })
      .where(and(eq(memberInvitations.id, invitation.id), ...open(now)))
      .returning({ id: memberInvitations.id });
    if (taken.length === 0) throw invalidInvitation();
    if (await findUserByEmail(tx, invitation.email))
      throw new AppError("email_taken", "This address already signs in to a dashboard", { param: "email" });
    await tx.insert(users).values({
      id: userId,
      accountId: invitation.accountId,
      email: invitation.email,
      name,
      role: invitation.role,
      passwordHash,
      createdAt: now,
    });
    await recordAudit(tx, {
      accountId: invitation.accountId,
      action: "member.joined",
      resourceId: userId,
      fields: ["role"],
    });
  });
  return { userId, email: invitation.email, accountId: invitation.accountId };
}
