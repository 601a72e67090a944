import { and, count, eq, isNull } from "drizzle-orm";

import { clock } from "../../clock";
import { keyedDigest } from "../../crypto/field-encryption";
import { recoveryCodes } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { createId, randomBase62 } from "../../ids";

// Ten recovery codes per member (docs/reference.md section 23), shown once when the first factor is
// set up or when the member makes new ones (the old ten then stop working); each signs in once in
// place of the factor. Only a keyed digest is stored. A code is ten characters of 30 (about 49 bits; guessed online, behind
// the second step's attempt limits).

const COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

const digestOf = (code: string) => keyedDigest(`recovery:${code.replace(/[\s-]/g, "").toLowerCase()}`);

function newCode() {
  // base62 from the CSPRNG, mapped into an alphabet without look-alikes (0/o, 1/l/i).
  const raw = randomBase62(10);
  const letters = [...raw].map((ch) => ALPHABET[ch.charCodeAt(0) % ALPHABET.length]).join("");
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** Ten new codes for the member (the earlier ones stop working): shown once, never again. */
export async function newRecoveryCodes(db: DbOrTx, userId: string) {
  const codes = Array.from({ length: COUNT }, newCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ id: createId("rc"), userId, digest: digestOf(code) })));
  return codes;
}

/** Uses one of the member's codes (atomically: one request of two with the same code wins); whether it was one. */
export async function useRecoveryCode(db: DbOrTx, userId: string, code: unknown, now = clock.now()) {
  if (typeof code !== "string" || code.replace(/[\s-]/g, "").length !== 10) return false;
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.digest, digestOf(code)), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** How many of the member's codes are still unused. */
export async function recoveryCodesLeft(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}
