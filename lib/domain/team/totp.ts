import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";

import { clock } from "../../clock";
import { decryptField, encryptField } from "../../crypto/field-encryption";
import { userFactors } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";

// An authenticator app's codes (RFC 6238: SHA-1, six digits, 30 seconds, as every app reads them).
// A code of the step before or after the server's is accepted (clocks drift); a code is used once,
// and never one of a step at or before the last accepted (a replay, or an older code seen over a
// shoulder). The secret is stored encrypted (lib/crypto) and shown once, while it is being set up.

const PERIOD = 30;
const ISSUER = "Onboard";

const totpOf = (secret: string, label = "member") =>
  new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** The 30-second step of `at`. */
export const totpStep = (at: Date) => Math.floor(at.getTime() / 1000 / PERIOD);

/** The code an authenticator app shows at `at` (tests and the journeys' sign-in helper). */
export const totpCode = (secret: string, at = clock.now()) => totpOf(secret).generate({ timestamp: at.getTime() });

/** A six-digit code as people type it ("123 456", "123-456") or null when it cannot be one. */
export const normalizeCode = (code: unknown) => {
  const digits = typeof code === "string" ? code.replace(/[\s-]/g, "") : "";
  return /^\d{6}$/.test(digits) ? digits : null;
};

/**
 * A new secret for the member's authenticator app, not yet confirmed (an earlier unconfirmed one
 * is dropped): the secret (base32) and the `otpauth://` URI its QR code carries.
 */
export async function startTotp(db: DbOrTx, member: { userId: string; email: string }) {
  await db
    .delete(userFactors)
    .where(and(eq(userFactors.userId, member.userId), eq(userFactors.kind, "totp"), isNull(userFactors.confirmedAt)));
  const secret = new Secret({ size: 20 }).base32;
  const id = createId("fac");
  await db.insert(userFactors).values({
    id,
    userId: member.userId,
    kind: "totp",
    name: "Authenticator app",
    // The envelope's last four would be four characters of the secret: none are kept in clear.
    secret: { ...encryptField(secret), last4: "" },
  });
  return { factorId: id, secret, uri: totpOf(secret, member.email).toString() };
}

/**
 * Whether `code` is one of the member's TOTP codes now (any confirmed app, or the unconfirmed one
 * `pendingId` being set up); the factor it matched is marked used for that step, atomically, so two
 * requests with one code accept it once. Null when it matches nothing (or was used).
 */
export async function useTotpCode(
  db: DbOrTx,
  userId: string,
  code: unknown,
  { now = clock.now(), pendingId }: { now?: Date; pendingId?: string } = {},
) {
  const token = normalizeCode(code);
  if (!token) return null;
  const rows = await db
    .select({ id: userFactors.id, secret: userFactors.secret })
    .from(userFactors)
    .where(
      and(
        eq(userFactors.userId, userId),
        eq(userFactors.kind, "totp"),
        pendingId ? eq(userFactors.id, pendingId) : isNotNull(userFactors.confirmedAt),
      ),
    );
  for (const row of rows) {
    if (!row.secret) continue;
    const delta = totpOf(decryptField(row.secret)).validate({ token, timestamp: now.getTime(), window: 1 });
    if (delta === null) continue;
    const step = totpStep(now) + delta;
    const [used] = await db
      .update(userFactors)
      .set({ lastUsedStep: step, lastUsedAt: now, confirmedAt: pendingId ? now : undefined })
      .where(and(eq(userFactors.id, row.id), or(isNull(userFactors.lastUsedStep), lt(userFactors.lastUsedStep, step))))
      .returning({ id: userFactors.id });
    if (used) return used.id;
  }
  return null;
}

/** Confirms the app being set up with its first code; refuses (400) a wrong or stale one. */
export async function confirmTotp(db: DbOrTx, userId: string, factorId: unknown, code: unknown, now = clock.now()) {
  if (typeof factorId !== "string") throw new AppError("parameter_invalid", "Start again", { param: "factor" });
  const used = await useTotpCode(db, userId, code, { now, pendingId: factorId });
  if (!used)
    throw new AppError("invalid_second_factor", "That code is not the one the app shows now: try the next one", {
      param: "code",
    });
  return used;
}
