import { mask } from "../crypto/field-encryption";
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookRow } from "../db/schema";
import { FIRST_API_VERSION } from "../versions/versions";

/** The secret in full only in the create answer; masked everywhere else. */
export function serializeWebhook(row: WebhookRow, fullSecret?: string) {
  return {
    object: "webhook" as const,
    id: row.id,
    url: row.url,
    scopes: row.scopes,
    secret: fullSecret ?? mask(row.secret.last4, 12),
    description: row.description,
    status: row.status,
    disabled_reason: row.disabledReason,
    // Endpoints made before versions existed are written in the first version.
    api_version: row.apiVersion ?? FIRST_API_VERSION,
    created_at: row.createdAt.toISOString(),
  };
}

export function serializeDelivery(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[]) {
  return {
    object: "webhook_delivery" as const,
    id: row.id,
    webhook_id: row.webhookId,
    event_id: row.eventId,
    status: row.status,
    attempt_count: row.attempts,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_status_code: row.lastStatusCode,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      attempted_at: a.attemptedAt.toISOString(),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
  };
}
