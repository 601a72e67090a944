import { eq } from "drizzle-orm";

import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import { paymentRequests } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError, invalidState } from "../../errors";
import { serializePaymentRequest } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { recordEvent } from "../events/record-event";
import type { Scope } from "../scope";
import { findPaymentRequest } from "./find-payment-request";
import { movePaymentRequestIfAllowed, notBeingPaid } from "./status";

/**
 * POST /v1/payment_requests/{id}/cancel: PENDING → CANCELED with `payment_request.canceled`; 409
 * `invalid_state` once final. A payment being authorized at this moment wins (409 `payment_in_progress`).
 */
export async function cancelPaymentRequest(db: Db, scope: Scope, id: string) {
  await findPaymentRequest(db, scope, id);
  return db.transaction(async (tx) => {
    const moved = await movePaymentRequestIfAllowed(tx, id, "cancelRequest", { canceledAt: clock.now() }, notBeingPaid);
    if (!moved) {
      const [current] = await tx
        .select({ status: paymentRequests.status })
        .from(paymentRequests)
        .where(eq(paymentRequests.id, id));
      if (current?.status === "PENDING")
        throw new AppError(
          "payment_in_progress",
          "A payment of this request is being authorized right now; try again in a few seconds",
        );
      throw invalidState(
        `Cannot cancelRequest: the payment request is ${current?.status ?? "missing"}, expected PENDING`,
      );
    }
    const isv = await getAccount(tx, moved.isvAccountId);
    const base = hostedBaseUrl(isv);
    await recordEvent(tx, {
      accountId: moved.isvAccountId,
      type: "payment_request.canceled",
      objectId: moved.id,
      data: serializePaymentRequest(moved, base),
    });
    return { row: moved, base };
  });
}
