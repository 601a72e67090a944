import { type Db } from "../../db/types";
import { type Scope } from "../scope";
import { disputeEvent, lockDispute, moveDisputeOrConflict } from "./status";

/** POST /v1/disputes/{id}/accept: the merchant gives the amount up; lost at once, `dispute.closed`. */
export async function acceptDispute(db: Db, scope: Scope, id: string) {
  return db.transaction(async (tx) => {
    await lockDispute(tx, scope, id);
    const lost = await moveDisputeOrConflict(tx, id, "accept");
    return disputeEvent(tx, "dispute.closed", lost);
  });
}
