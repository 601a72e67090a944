import { and, asc, eq, isNull, sql } from "drizzle-orm";

import { isRole, mayManageTeam, type Role } from "../../auth/permissions";
import { clock } from "../../clock";
import { accounts, users, userSessions } from "../../db/schema";
import type { Db, DbOrTx } from "../../db/types";
import { AppError, notFound } from "../../errors";
import { findUserByEmail } from "../accounts/find-user-by-email";
import { recordAudit } from "../audit/record-audit";
import { dropFactors, enrolmentDue, memberFactors } from "./factors";

// The members of an ISV's team and their roles (docs/reference.md section 23). Only owners change
// the team; an ISV always keeps one owner (the count is read under a lock of the account's row, so
// two owners demoting each other at once cannot both succeed).

/** Who changes the team: a member of the account, with its role. */
export type TeamCaller = { accountId: string; userId: string; role: Role };

export function assertManager(caller: TeamCaller) {
  if (!mayManageTeam(caller.role))
    throw new AppError("permission_denied", `Your role (${caller.role}) cannot change the team: this needs owner`);
}

/** The team, first members first. */
export function listMembers(db: DbOrTx, accountId: string) {
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.removedAt)))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/**
 * Locks the account's row and reads the member (404 for another ISV's or a removed one) and the
 * owners' count; the caller's own role is read again under the lock (a change that raced it may
 * have taken it away).
 */
async function lockedMember(tx: DbOrTx, caller: TeamCaller, memberId: string, manage: boolean) {
  const { accountId } = caller;
  await tx.execute(sql`select 1 from ${accounts} where ${accounts.id} = ${accountId} for update`);
  if (manage) {
    const [self] = await tx
      .select({ role: users.role })
      .from(users)
      .where(and(eq(users.id, caller.userId), eq(users.accountId, accountId), isNull(users.removedAt)));
    assertManager({ ...caller, role: self?.role ?? "view_only" });
  }
  const [member] = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.id, memberId), eq(users.accountId, accountId), isNull(users.removedAt)));
  if (!member) throw new AppError("resource_missing", "No such member");
  const owners = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.role, "owner"), isNull(users.removedAt)));
  return { member, owners: owners.length };
}

const lastOwner = () =>
  new AppError("last_owner", "The team keeps at least one owner: make another member owner first");

/** Gives a member another role. The last owner cannot become anything else. */
export async function changeRole(db: Db, caller: TeamCaller, memberId: unknown, role: unknown) {
  assertManager(caller);
  if (!isRole(role)) throw new AppError("parameter_invalid", "Choose a role", { param: "role" });
  await db.transaction(async (tx) => {
    const { member, owners } = await lockedMember(tx, caller, String(memberId), true);
    if (member.role === role) return;
    if (member.role === "owner" && owners <= 1) throw lastOwner();
    await tx.update(users).set({ role }).where(eq(users.id, member.id));
    await enrolmentDue(tx, member.id, role);
    await recordAudit(tx, {
      accountId: caller.accountId,
      action: "member.role_changed",
      resourceId: member.id,
      fields: ["role"],
    });
  });
}

/**
 * Removes a member: it signs in no more, and every session it has ends now (its open pages sign out
 * at their next request, its Bearer tokens are refused). The last owner cannot be removed; a member
 * may remove itself unless it is that owner.
 */
export async function removeMember(db: Db, caller: TeamCaller, memberId: unknown, now = clock.now()) {
  const self = String(memberId) === caller.userId;
  if (!self) assertManager(caller);
  await db.transaction(async (tx) => {
    const { member, owners } = await lockedMember(tx, caller, String(memberId), !self);
    if (member.role === "owner" && owners <= 1) throw lastOwner();
    await tx.update(users).set({ removedAt: now, sessionsValidAfter: now }).where(eq(users.id, member.id));
    await tx
      .update(userSessions)
      .set({ endedAt: now })
      .where(and(eq(userSessions.userId, member.id), isNull(userSessions.endedAt)));
    await recordAudit(tx, { accountId: caller.accountId, action: "member.removed", resourceId: member.id });
  });
}

/**
 * A member lost its factor and its recovery codes: an owner resets them (never its own: another owner
 * does, or the member uses a recovery code). Its factors and codes go, every session it has ends, and
 * it sets a factor up again at its next sign-in.
 */
export async function resetMemberFactors(db: Db, caller: TeamCaller, memberId: unknown, now = clock.now()) {
  assertManager(caller);
  if (String(memberId) === caller.userId)
    throw new AppError("invalid_state", "Another owner resets your second factor (or sign in with a recovery code)");
  await db.transaction(async (tx) => {
    const { member } = await lockedMember(tx, caller, String(memberId), true);
    await clearFactors(tx, caller.accountId, member.id, now);
  });
}

/**
 * The operator CLI's reset (`npm run cli -- member factors-reset --email ...`): the member with this
 * address loses its factors, its recovery codes and every session, as an owner's reset does; for the
 * member nobody else can reset (an account's only owner who lost its factor and its codes). The
 * operator checks who is asking before running it; the audit log names the operator.
 */
export async function operatorResetFactors(db: Db, email: string, now = clock.now()) {
  return db.transaction(async (tx) => {
    const member = await findUserByEmail(tx, email);
    if (!member) throw notFound("member with the e-mail address", email.trim(), "email");
    const factors = await memberFactors(tx, member.id);
    await clearFactors(tx, member.accountId, member.id, now);
    return {
      account_id: member.accountId,
      user_id: member.id,
      email: member.email,
      role: member.role,
      factors_removed: factors.length,
    };
  });
}

/** A member's factors, recovery codes and open sessions gone, in the caller's transaction, audited. */
async function clearFactors(tx: DbOrTx, accountId: string, memberId: string, now: Date) {
  await dropFactors(tx, memberId);
  await tx
    .update(userSessions)
    .set({ endedAt: now })
    .where(and(eq(userSessions.userId, memberId), isNull(userSessions.endedAt)));
  await recordAudit(tx, { accountId, action: "member.factors_reset", resourceId: memberId });
}

/** The largest refund a `support` member may make (cents, at most $1,000,000); only an owner sets it. */
export async function setSupportRefundLimit(db: Db, caller: TeamCaller, cents: unknown) {
  assertManager(caller);
  if (typeof cents !== "number" || !Number.isSafeInteger(cents) || cents < 0 || cents > 100_000_000)
    throw new AppError("parameter_invalid", "The limit is an amount from $0.00 to $1,000,000.00", {
      param: "support_refund_limit",
    });
  await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({ supportRefundLimit: cents, updatedAt: clock.now() })
      .where(eq(accounts.id, caller.accountId));
    await recordAudit(tx, {
      accountId: caller.accountId,
      action: "account.updated",
      resourceId: caller.accountId,
      fields: ["support_refund_limit"],
    });
  });
}

/**
 * The largest refund the caller may make: a `support` member, its owner's limit; anyone else (the
 * other roles, an API key), no limit (undefined).
 */
export async function refundCeilingFor(db: DbOrTx, caller: { kind: string; accountId: string; role?: Role }) {
  if (caller.kind !== "user" || caller.role !== "support") return undefined;
  const [account] = await db
    .select({ limit: accounts.supportRefundLimit })
    .from(accounts)
    .where(eq(accounts.id, caller.accountId));
  return account?.limit ?? 0;
}
