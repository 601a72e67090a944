import { and, eq, isNull, not } from "drizzle-orm";

import { clock } from "../../clock";
import { paymentRequests } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { AppError, invalidState } from "../../errors";
import { effectiveStatus, notBeingPaid, pastDeadline } from "./status";

/** How long a payment holds its request while the processor authorizes (a crash frees it after this). */
const CLAIM_MS = 30_000;

/** Until when an attempt starting now holds its request. */
export const claimedUntil = () => new Date(clock.ms() + CLAIM_MS);

/** Takes the request for this attempt, or says why it cannot be paid now. */
export async function claimRequest(db: DbOrTx, id: string) {
  const [claimed] = await db
    .update(paymentRequests)
    .set({ lockedUntil: claimedUntil() })
    .where(
      and(
        eq(paymentRequests.id, id),
        eq(paymentRequests.status, "PENDING"),
        not(pastDeadline),
        notBeingPaid,
        isNull(paymentRequests.lockedAt),
      ),
    )
    .returning({ id: paymentRequests.id });
  if (claimed) return;
  const [current] = await db.select().from(paymentRequests).where(eq(paymentRequests.id, id));
  const status = current ? effectiveStatus(current) : "missing";
  if (status === "PENDING" && current?.lockedAt)
    throw new AppError(
      "payment_request_locked",
      "This payment request is locked after too many declined attempts; the business can unlock it or send a new one",
    );
  if (status === "PENDING")
    throw new AppError(
      "payment_in_progress",
      "A payment of this request is being authorized right now; wait for its outcome",
    );
  throw invalidState(`This payment request can no longer be paid: it is ${status}`);
}

/** Frees the request for another attempt (the attempt failed before anything was recorded). */
export async function releaseRequest(db: DbOrTx, id: string) {
  await db
    .update(paymentRequests)
    .set({ lockedUntil: null })
    .where(and(eq(paymentRequests.id, id), eq(paymentRequests.status, "PENDING")));
}
