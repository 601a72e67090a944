import { and, eq } from "drizzle-orm";

import { clock } from "../../clock";
import { accounts, users, userSessions } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { noteUse } from "./note-use";
import { tokenStillValid } from "./password-reset";

// What a verified sign-in token (a Bearer on `/v1`, the dashboard's cookie) still opens: its member
// (not removed, no password reset since), its session (not ended, not expired) and that session's
// stage. One reading for the API and the pages (docs/reference.md section 23).

/** The member and session behind a verified user token's claims, or null when they open nothing. */
export async function memberOfToken(db: DbOrTx, claims: Record<string, unknown>, now = clock.now()) {
  if (claims.kind !== "user" || typeof claims.sub !== "string" || typeof claims.account_id !== "string") return null;
  const sid = typeof claims.sid === "string" ? claims.sid : "";
  const [row] = await db
    .select({
      type: accounts.type,
      parentId: accounts.parentId,
      apiVersion: accounts.apiVersion,
      sessionsValidAfter: users.sessionsValidAfter,
      role: users.role,
      removedAt: users.removedAt,
      sessionId: userSessions.id,
      sessionEndedAt: userSessions.endedAt,
      sessionExpiresAt: userSessions.expiresAt,
      stage: userSessions.stage,
      factor: userSessions.factor,
    })
    .from(accounts)
    .innerJoin(users, and(eq(users.accountId, accounts.id), eq(users.id, claims.sub)))
    .leftJoin(userSessions, and(eq(userSessions.id, sid), eq(userSessions.userId, users.id)))
    .where(eq(accounts.id, claims.account_id));
  if (!row || row.removedAt !== null || !tokenStillValid(row, claims.iat)) return null;
  // A token from before sessions were rows has no `sid`: its hour runs out. One with a `sid` needs
  // its session open.
  if (sid && (row.sessionId === null || row.sessionEndedAt !== null)) return null;
  if (row.sessionExpiresAt !== null && row.sessionExpiresAt.getTime() <= now.getTime()) return null;
  if (row.sessionId !== null) {
    const id = row.sessionId;
    noteUse(id, now.getTime(), () => db.update(userSessions).set({ lastSeenAt: now }).where(eq(userSessions.id, id)));
  }
  return {
    accountId: claims.account_id,
    userId: claims.sub,
    type: row.type,
    parentId: row.parentId,
    apiVersion: row.apiVersion,
    role: row.role,
    sessionId: row.sessionId,
    stage: row.stage ?? "complete",
    factor: row.factor,
    /** When this sign-in finished (the token's `iat`, Unix seconds): sensitive changes need a recent one. */
    signedInAt: typeof claims.iat === "number" ? claims.iat : null,
  };
}

export type TokenMember = NonNullable<Awaited<ReturnType<typeof memberOfToken>>>;
