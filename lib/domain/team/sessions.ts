import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";

import { clock } from "../../clock";
import { userSessions } from "../../db/schema";
import type { Db, DbOrTx } from "../../db/types";
import { recordAudit } from "../audit/record-audit";

// A member's dashboard sessions (docs/reference.md section 23): listed in the settings (device,
// address, signed in, last seen), each ended by its sign-out; "sign out everywhere" ends the others.

/** The member's open sessions, newest first; `current` marks the one asking. */
export async function openSessions(db: DbOrTx, userId: string, currentId: string | null, now = clock.now()) {
  const rows = await db
    .select({
      id: userSessions.id,
      userAgent: userSessions.userAgent,
      clientAddress: userSessions.clientAddress,
      createdAt: userSessions.createdAt,
      lastSeenAt: userSessions.lastSeenAt,
      expiresAt: userSessions.expiresAt,
    })
    .from(userSessions)
    .where(
      and(
        eq(userSessions.userId, userId),
        eq(userSessions.stage, "complete"),
        isNull(userSessions.endedAt),
        gt(userSessions.expiresAt, now),
      ),
    )
    .orderBy(desc(userSessions.createdAt))
    .limit(50);
  return rows.map((row) => ({ ...row, current: row.id === currentId }));
}

/** Ends every open session of the member but `keepId` (the one asking); how many ended. */
export async function endOtherSessions(db: Db, member: { accountId: string; userId: string }, keepId: string | null) {
  const ended = await db
    .update(userSessions)
    .set({ endedAt: clock.now() })
    .where(
      and(
        eq(userSessions.userId, member.userId),
        isNull(userSessions.endedAt),
        keepId ? ne(userSessions.id, keepId) : undefined,
      ),
    )
    .returning({ id: userSessions.id });
  await recordAudit(db, { accountId: member.accountId, action: "member.sessions_ended", resourceId: member.userId });
  return ended.length;
}
