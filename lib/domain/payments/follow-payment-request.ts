import type { DatabaseHandle } from "../../db/types";
import { publicFailureReason } from "../../serializers/pay-result";
import { findPublicPaymentRequest } from "./find-payment-request";
import { PAYMENT_REQUEST_CHANNEL } from "./status";

export type LiveState = {
  id: string;
  status: string;
  charge_id: string | null;
  /** As the anonymous payer may read it (publicFailureReason). */
  last_failure_reason: string | null;
  /** Locked after too many declined attempts (card testing): PENDING but not payable. */
  locked: boolean;
};

/**
 * A payment request's state now and at every change, until it is final, `signal` aborts or ten
 * minutes pass. Woken by the request's NOTIFY (at commit, from any instance on one PostgreSQL); a
 * re-read every 5 seconds is the safety net. Yields only when the state differs from the last.
 */
export async function* followPaymentRequest(
  handle: DatabaseHandle,
  id: string,
  signal: AbortSignal,
): AsyncGenerator<LiveState> {
  let wake: (() => void) | undefined;
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  const unlisten = await handle.listen(PAYMENT_REQUEST_CHANNEL, (changed) => {
    if (changed === id) wake?.();
  });
  try {
    let last = "";
    const deadline = Date.now() + 10 * 60_000;
    while (!signal.aborted && Date.now() < deadline) {
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const row = await findPublicPaymentRequest(handle.db, id);
      const state = {
        id: row.id,
        status: row.status,
        charge_id: row.chargeId,
        last_failure_reason: publicFailureReason(row.lastFailureReason),
        locked: row.lockedAt !== null,
      };
      const text = JSON.stringify(state);
      if (text !== last) {
        yield state;
        last = text;
      }
      if (row.status !== "PENDING") break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    await unlisten();
  }
}
