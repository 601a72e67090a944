import { currentActor } from "../../audit/actor";
import { auditLogs } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { createId } from "../../ids";
import { type nonEventActions } from "./actions";

/**
 * One audit entry for a change that writes no event (settings, keys, webhooks, links, files), in
 * the caller's transaction, under the current actor; nothing without one. Changes that write an
 * event are audited by the event's own statement (lib/domain/events/record-event.ts).
 */
export async function recordAudit(
  tx: DbOrTx,
  entry: { accountId: string; action: (typeof nonEventActions)[number]; resourceId: string; fields?: string[] },
) {
  const actor = currentActor();
  if (!actor) return;
  await tx.insert(auditLogs).values({
    id: createId("al"),
    accountId: entry.accountId,
    actorType: actor.type,
    actorId: actor.id,
    actorVia: actor.via ?? null,
    action: entry.action,
    resourceId: entry.resourceId,
    fields: entry.fields ?? [],
    requestId: actor.requestId ?? null,
    clientAddress: actor.clientAddress ?? null,
  });
}
