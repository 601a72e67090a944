import { and, eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import type { AccountRow } from "../../db/schema";
import { paymentRequests } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { RetryLater } from "../../jobs/definition";
import type { JobPayload } from "../../jobs/job-types";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import { movePaymentRequestIfAllowed, notBeingPaid, pastDeadline } from "./status";

/** PENDING → EXPIRED once past its deadline, with `payment_request.expired`; null when not due (or no longer PENDING). */
export async function expireIfDue(tx: DbOrTx, id: string, isv?: AccountRow) {
  const moved = await movePaymentRequestIfAllowed(
    tx,
    id,
    "expireRequest",
    { expiredAt: clock.now() },
    and(pastDeadline, notBeingPaid),
  );
  if (!moved) return null;
  const account = isv ?? (await getAccount(tx, moved.isvAccountId));
  await recordEvent(tx, {
    accountId: moved.isvAccountId,
    type: "payment_request.expired",
    objectId: moved.id,
    data: serializePaymentRequest(moved, hostedBaseUrl(account)),
  });
  return moved;
}

/** The job queued with every request, due at its `expires_at` (7 days; a TERMINAL request's deadline). */
export async function expirePaymentRequest(db: Db, { payment_request_id }: JobPayload<"payment_request_expiry">) {
  await db.transaction(async (tx) => {
    if (await expireIfDue(tx, payment_request_id)) return;
    const [row] = await tx
      .select({ status: paymentRequests.status, expiresAt: paymentRequests.expiresAt })
      .from(paymentRequests)
      .where(eq(paymentRequests.id, payment_request_id));
    // Ran a little early (clocks): try again shortly. Paid, canceled or gone: nothing to do.
    if (row?.status === "PENDING") throw new RetryLater(`not due until ${row.expiresAt.toISOString()}`);
  });
}
