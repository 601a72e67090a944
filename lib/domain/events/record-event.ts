import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { createId } from "../../ids";
import { fanOutEvent } from "../webhooks/fan-out";

export const eventTypes = [
  "merchant.created", "merchant.updated", "merchant.submitted", "merchant.information_requested", "merchant.approved",
  "merchant.declined", "payment_request.created", "charge.authorized", "charge.paid", "charge.failed", "charge.settled",
  "charge.refunded",
] as const;
export type EventType = (typeof eventTypes)[number];

/**
 * Writes an event in the caller's transaction, with one delivery job per subscribed webhook: the
 * change, its event and its deliveries commit together or not at all.
 */
export async function recordEvent(tx: DbOrTx, input: { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> }) {
  const id = createId("evt");
  await tx.insert(events).values({ id, accountId: input.accountId, type: input.type, objectId: input.objectId, data: input.data });
  await fanOutEvent(tx, { id, accountId: input.accountId, type: input.type });
  return id;
}
