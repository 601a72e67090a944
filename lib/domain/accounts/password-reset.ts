import { and, count, eq, gt, isNull } from "drizzle-orm";

import { digestSecret, hashPassword } from "../../auth/secrets";
import { checkAttempts } from "../../auth/sign-in-limiter";
import { platformBranding } from "../../branding/platform";
import { clock } from "../../clock";
import { passwordResets, users } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { type Locale } from "../../i18n/locales";
import { createId, randomBase62 } from "../../ids";
import { queueEmail } from "../../notifications/send-email";
import { passwordReset } from "../../notifications/templates";
import { findUserByEmail } from "./find-user-by-email";

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_MS = 30 * 60_000;
/** Links one user may be sent an hour (more asks are answered the same, and send nothing). */
const RESETS_PER_HOUR = 3;
export const MIN_PASSWORD_LENGTH = 10;

/**
 * "Forgot your password?": when an ISV user has this e-mail, a single-use link to choose a new
 * password, e-mailed to it (only the token's digest is kept). The caller answers the same whether or
 * not the e-mail is known, and whether or not this hour's links are spent: nothing tells who has an
 * account.
 */
export async function requestPasswordReset(db: Db, email: string, locale: Locale, address: string, now = clock.now()) {
  // Counted like sign-ins (per e-mail and address, and per address), whether or not the e-mail is known.
  await checkAttempts("password-reset", email, address);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await db.transaction(async (tx) => {
    const [recent] = await tx
      .select({ count: count() })
      .from(passwordResets)
      .where(
        and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(now.getTime() - 3_600_000))),
      );
    if ((recent?.count ?? 0) >= RESETS_PER_HOUR) return;
    const token = randomBase62(43);
    await tx.insert(passwordResets).values({
      id: createId("pwr"),
      userId: user.id,
      tokenDigest: digestSecret(token),
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MS),
      createdAt: now,
    });
    const message = passwordReset({
      brand: platformBranding,
      locale,
      email: user.email,
      url: `${env.PUBLIC_BASE_URL}/sign-in/reset/${token}`,
    });
    await queueEmail(tx, { accountId: user.accountId, kind: "password_reset", to: user.email, locale, ...message });
  });
}

const invalidLink = () =>
  new AppError("password_reset_invalid", "This link was already used or has expired: ask for a new one");

/**
 * Uses a reset link once: the user's new password; every sign-in token it had stops working (the
 * dashboard's and the API's Bearer ones), and its other reset links too. An unknown, used or expired
 * link: 400 `password_reset_invalid`, nothing changed. Two uses racing: one wins (a conditional update).
 * The link is looked up before the password is hashed (a made-up link costs a lookup, not a second of
 * the thread pool that sign-ins share), and attempts are counted like sign-ins: per address, and per
 * e-mail and address once the link names its user.
 */
export async function resetPassword(db: Db, token: string, password: string, address: string, now = clock.now()) {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 256)
    throw new AppError("parameter_invalid", `A password has ${MIN_PASSWORD_LENGTH} to 256 characters`, {
      param: "password",
    });
  await checkAttempts("password-reset", null, address);
  const tokenDigest = digestSecret(token);
  const [live] = await db
    .select({ email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.tokenDigest, tokenDigest),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .limit(1);
  if (!live) throw invalidLink();
  await checkAttempts("password-reset", live.email, address);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResets.tokenDigest, tokenDigest),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .returning();
    // Used by a racing request while this one hashed.
    if (!used) throw invalidLink();
    // A token's iat is in whole seconds: one signed in after this reset, within the same second, works.
    await tx
      .update(users)
      .set({ passwordHash, sessionsValidAfter: new Date(Math.floor(now.getTime() / 1000) * 1000) })
      .where(eq(users.id, used.userId));
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
    return { userId: used.userId };
  });
}

/** Whether a sign-in token issued at `issuedAt` (Unix seconds) still opens this user's sessions. */
export function tokenStillValid(user: { sessionsValidAfter: Date | null }, issuedAt: unknown) {
  if (!user.sessionsValidAfter) return true;
  return typeof issuedAt === "number" && issuedAt * 1000 >= user.sessionsValidAfter.getTime();
}
