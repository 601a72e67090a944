import type { DbOrTx } from "../../db/client";
import { events } from "../../db/schema";
import { createId } from "../../ids";
import { fanOutEvent, fanOutEvents } from "../webhooks/fan-out";
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

type EventInput = { accountId: string; type: EventType; objectId: string; data: Record<string, unknown> };

/** Many events in the caller's transaction (multi-row inserts), with their deliveries: for batches like a settlement. */
export async function recordEvents(tx: DbOrTx, inputs: EventInput[]) {
  const rows = inputs.map((input) => ({ id: createId("evt"), accountId: input.accountId, type: input.type, objectId: input.objectId, data: input.data }));
  for (let i = 0; i < rows.length; i += 500) await tx.insert(events).values(rows.slice(i, i + 500));
  await fanOutEvents(
    tx,
    rows.map((r) => ({ id: r.id, accountId: r.accountId, scope: scopeOf(r.type) })),
  );
  return rows.map((r) => r.id);
}
