import { and, eq, isNotNull } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { paymentRequests } from "../../db/schema";
import { type Db } from "../../db/types";
import { invalidState } from "../../errors";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import type { Scope } from "../scope";
import { findPaymentRequest } from "./find-payment-request";
import { effectiveStatus, notifyPaymentRequest } from "./status";

/**
 * POST /v1/payment_requests/{id}/unlock: a request locked by too many declined attempts (card
 * testing, ./card-testing.ts) can be paid again; its declined attempts count from 0, and
 * `payment_request.unlocked` is recorded. 409 `invalid_state` when it is not locked or no longer PENDING.
 * The per-card and per-address limits still apply to whoever tries next.
 */
export async function unlockPaymentRequest(db: Db, scope: Scope, id: string) {
  await findPaymentRequest(db, scope, id);
  return db.transaction(async (tx) => {
    const [unlocked] = await tx
      .update(paymentRequests)
      .set({ lockedAt: null, declinedAttempts: 0 })
      .where(
        and(eq(paymentRequests.id, id), eq(paymentRequests.status, "PENDING"), isNotNull(paymentRequests.lockedAt)),
      )
      .returning();
    if (!unlocked) {
      const [current] = await tx.select().from(paymentRequests).where(eq(paymentRequests.id, id));
      const status = current ? effectiveStatus(current) : "missing";
      throw invalidState(
        status === "PENDING"
          ? "This payment request is not locked"
          : `Cannot unlock: the payment request is ${status}, expected a locked PENDING request`,
      );
    }
    await notifyPaymentRequest(tx, id);
    const base = hostedBaseUrl(await getAccount(tx, unlocked.isvAccountId));
    await recordEvent(tx, {
      accountId: unlocked.isvAccountId,
      type: "payment_request.unlocked",
      objectId: unlocked.id,
      data: serializePaymentRequest(unlocked, base),
    });
    return { row: unlocked, base };
  });
}
