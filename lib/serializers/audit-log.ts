import type { AuditLogRow } from "../db/schema";

/** An audit entry as the API and the dashboard show it. */
export function serializeAuditLog(row: AuditLogRow) {
  return {
    object: "audit_log" as const,
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, via: row.actorVia },
    action: row.action,
    resource_id: row.resourceId,
    fields: row.fields,
    request_id: row.requestId,
    client_address: row.clientAddress,
    created_at: row.createdAt.toISOString(),
  };
}
