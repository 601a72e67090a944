import { and, asc, eq, isNotNull, isNull, ne } from "drizzle-orm";

import type { Role } from "../../auth/permissions";
import { clock } from "../../clock";
import { recoveryCodes, type SignInFactor, userFactors, userSessions, webauthnChallenges } from "../../db/schema";
import type { Db, DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { recordAudit } from "../audit/record-audit";
import { usePasskey } from "./passkeys";
import { newRecoveryCodes, recoveryCodesLeft, useRecoveryCode } from "./recovery-codes";
import { useTotpCode } from "./totp";

// A member's second factors (docs/reference.md section 23): authenticator apps and passkeys, and the
// recovery codes that stand in for them. Owners and admins keep at least one. Adding or removing a
// factor ends the member's other sessions.

/** Whether a role must have a second factor before anything else. */
export const factorRequired = (role: Role) => role === "owner" || role === "admin";

/** The member's factors in use, oldest first (an app being set up is not one yet). */
export function memberFactors(db: DbOrTx, userId: string) {
  return db
    .select({
      id: userFactors.id,
      kind: userFactors.kind,
      name: userFactors.name,
      createdAt: userFactors.createdAt,
      lastUsedAt: userFactors.lastUsedAt,
    })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)))
    .orderBy(asc(userFactors.createdAt), asc(userFactors.id));
}

/** The member's security settings: its factors and how many recovery codes are left. */
export async function securityOf(db: DbOrTx, userId: string) {
  const [factors, codesLeft] = await Promise.all([memberFactors(db, userId), recoveryCodesLeft(db, userId)]);
  return { factors, codesLeft };
}

/** Checks a second factor: a passkey's answer, or a code (an app's six digits, else a recovery code). */
export async function useSecondFactor(
  db: DbOrTx,
  userId: string,
  proof: { code?: unknown; passkey?: unknown },
): Promise<SignInFactor | null> {
  if (proof.passkey !== undefined) return (await usePasskey(db, userId, proof.passkey)) ? "passkey" : null;
  if (await useTotpCode(db, userId, proof.code)) return "totp";
  if (await useRecoveryCode(db, userId, proof.code)) return "recovery_code";
  return null;
}

type Member = { accountId: string; userId: string; sessionId: string | null };

/** Ends the member's sessions but `keepId` (a factor added or removed: whoever else was signed in signs in again). */
async function endOthers(db: DbOrTx, userId: string, keepId: string | null) {
  await db
    .update(userSessions)
    .set({ endedAt: clock.now() })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.endedAt),
        keepId ? ne(userSessions.id, keepId) : undefined,
      ),
    );
}

/**
 * A factor was just set up (its first code checked, or its passkey registered): audited, the other
 * sessions end, and a member without recovery codes gets its ten (shown once; null when it had some).
 */
export async function factorAdded(db: Db, member: Member, factorId: string) {
  return db.transaction(async (tx) => {
    await endOthers(tx, member.userId, member.sessionId);
    await recordAudit(tx, { accountId: member.accountId, action: "member.factor_added", resourceId: factorId });
    return (await recoveryCodesLeft(tx, member.userId)) === 0 ? newRecoveryCodes(tx, member.userId) : null;
  });
}

/** Removes one of the member's factors; an owner or admin keeps at least one (409 `last_factor`). */
export async function removeFactor(db: Db, member: Member & { role: Role }, factorId: unknown) {
  await db.transaction(async (tx) => {
    const factors = await memberFactors(tx, member.userId);
    const factor = factors.find((f) => f.id === factorId);
    if (!factor) throw new AppError("resource_missing", "No such factor");
    if (factors.length === 1 && factorRequired(member.role))
      throw new AppError("last_factor", "Owners and admins keep one second factor: add another before removing this");
    await tx.delete(userFactors).where(eq(userFactors.id, factor.id));
    if (factors.length === 1) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, member.userId));
    await endOthers(tx, member.userId, member.sessionId);
    await recordAudit(tx, { accountId: member.accountId, action: "member.factor_removed", resourceId: factor.id });
  });
}

/** Ten new recovery codes for the member (the old ones stop working); it must have a factor. */
export async function renewRecoveryCodes(db: Db, member: Member) {
  return db.transaction(async (tx) => {
    if ((await memberFactors(tx, member.userId)).length === 0)
      throw new AppError("invalid_state", "Set up a second factor first");
    const codes = await newRecoveryCodes(tx, member.userId);
    await recordAudit(tx, {
      accountId: member.accountId,
      action: "member.recovery_codes_renewed",
      resourceId: member.userId,
    });
    return codes;
  });
}

/** Every factor and recovery code of a member gone (an owner's reset of a lost factor). */
export async function dropFactors(tx: DbOrTx, userId: string) {
  await tx.delete(userFactors).where(eq(userFactors.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
}

/**
 * A member who became an owner or admin without a factor: its open sessions go back to the set-up
 * step (it sets one up at its next page or call, before anything else).
 */
export async function enrolmentDue(tx: DbOrTx, userId: string, role: Role) {
  if (!factorRequired(role)) return;
  if ((await memberFactors(tx, userId)).length > 0) return;
  await tx
    .update(userSessions)
    .set({ stage: "enrol" })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt), eq(userSessions.stage, "complete")));
}
