import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { createId } from "../../ids";
import { fanOutEvent } from "../webhooks/fan-out";
import { scopeOf, type EventType } from "../../events/catalogue";

/**
 * Writes an event in the caller's transaction, with one delivery job per subscribed webhook: the
 * change, its event and its deliveries commit together or not at all.
 */
export async function recordEvent(tx: DbOrTx, input: { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> }) {
  const id = createId("evt");
  await tx.insert(events).values({ id, accountId: input.accountId, type: input.type, objectId: input.objectId, data: input.data });
  await fanOutEvent(tx, { id, accountId: input.accountId, scope: scopeOf(input.type) });
  return id;
}
