import type { EventRow } from "../db/schema";

/** The event as GET /v1/events answers it and as webhooks deliver it (docs/reference.md section 9). */
export function serializeEvent(row: EventRow) {
  return {
    id: row.id,
    object: "event" as const,
    type: row.type,
    created_at: row.createdAt.toISOString(),
    account_id: row.accountId,
    data: { object: row.data },
  };
}
