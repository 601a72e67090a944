import { and, count, eq, gt, isNotNull, min, ne } from "drizzle-orm";

import { clock } from "../../clock";
import { charges } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";

// Card testing (docs/reference.md section 10): whoever holds a pay URL can try stolen cards on it.
// Three walls, all counted from the declined charges themselves, so they hold across instances and
// restarts without Redis, and are sliding windows (the last N hours, not a calendar bucket):
//   - one request takes at most DECLINES_PER_REQUEST declined attempts, then locks (an unlock by the
//     merchant or the ISV, or a new request, lets the customer try again);
//   - one card (its fingerprint, per ISV by construction) at most PER_CARD declines in its window,
//     across every request of the ISV;
//   - one client address at most PER_ADDRESS declines in its window across the ISV's requests.
// A `processing_error` is the processor's trouble, not the card's: it never counts.

export const DECLINES_PER_REQUEST = 5;
export const PER_CARD = { declines: 10, windowMs: 24 * 60 * 60 * 1000 };
export const PER_ADDRESS = { declines: 20, windowMs: 60 * 60 * 1000 };

/** Whether a decline's reason counts towards the card-testing limits. */
export const countsAsDecline = (reason: string) => reason !== "processing_error";

const countedDecline = and(eq(charges.status, "FAILED"), ne(charges.failureReason, "processing_error"));

/**
 * Refuses (429 `too_many_declines`, with Retry-After) an attempt by a card, or from an address, that
 * has already used up its declines in the window. Called before the processor sees the card.
 */
export async function assertNotCardTesting(
  db: DbOrTx,
  attempt: { isvAccountId: string; fingerprint: string; clientAddress: string | null },
) {
  const now = clock.ms();
  const check = async (
    where: ReturnType<typeof and>,
    limit: { declines: number; windowMs: number },
    message: string,
  ) => {
    const since = new Date(now - limit.windowMs);
    const [row] = await db
      .select({ n: count(), oldest: min(charges.createdAt) })
      .from(charges)
      .where(and(where, countedDecline, gt(charges.createdAt, since)));
    if (!row || row.n < limit.declines) return;
    // The window frees a place when its oldest counted decline leaves it.
    const freeAt = (row.oldest?.getTime() ?? now) + limit.windowMs;
    throw new AppError("too_many_declines", message, {
      retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now) / 1000)),
    });
  };
  await check(
    eq(charges.cardFingerprint, attempt.fingerprint),
    PER_CARD,
    "This card was declined too many times; use another card or try again later",
  );
  if (attempt.clientAddress)
    await check(
      and(
        eq(charges.isvAccountId, attempt.isvAccountId),
        isNotNull(charges.clientAddress),
        eq(charges.clientAddress, attempt.clientAddress),
      ),
      PER_ADDRESS,
      "Too many declined payments from this address; try again later",
    );
}
