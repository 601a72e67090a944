import { createHmac, timingSafeEqual } from "node:crypto";

import { OnbWebhookVerificationError } from "./errors.js";
import type { webhooks } from "./generated/openapi.js";

/** Every event type the API sends. */
export type WebhookEventType = keyof webhooks;

/** The event of one type as its delivery's body carries it, `data.object` typed. */
export type WebhookEventOf<K extends WebhookEventType> = webhooks[K]["post"] extends {
  requestBody: { content: { "application/json": infer E } };
}
  ? E & { type: K }
  : never;

/** Any event: narrow on `event.type` and `event.data.object` is that event's resource. */
export type WebhookEvent = { [K in WebhookEventType]: WebhookEventOf<K> }[WebhookEventType];

/** A delivery's headers: a fetch `Headers`, or Node's `IncomingHttpHeaders` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifyOptions = {
  /** How far the signature's time may be from now, in seconds (default 300: Standard Webhooks'). */
  toleranceSeconds?: number;
  /** Now, for tests (default: the clock). */
  now?: Date;
};

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** A `whsec_` secret's key is the base64 after the prefix; any other secret's key is its UTF-8 bytes. */
function keyOf(secret: string): Buffer {
  if (!secret) throw new OnbWebhookVerificationError("No webhook secret given");
  return secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret, "utf8");
}

/**
 * Checks a delivery the way Standard Webhooks says (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, compared in constant
 * time, any of several space-separated signatures) and answers its event, typed. Pass the body
 * exactly as received (the raw string or bytes, not a re-serialised object). Throws
 * `OnbWebhookVerificationError` when a header is missing, the time is outside the tolerance, no
 * signature matches, or the body is not an event.
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new OnbWebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header");
  if (!/^\d+$/.test(timestamp)) throw new OnbWebhookVerificationError("webhook-timestamp is not Unix seconds");
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const sentAt = Number(timestamp);
  if (sentAt < now - tolerance) throw new OnbWebhookVerificationError("The webhook's timestamp is too old");
  if (sentAt > now + tolerance) throw new OnbWebhookVerificationError("The webhook's timestamp is in the future");

  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload);
  const expected = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest();
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2);
    if (version !== "v1" || !signature) return false;
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new OnbWebhookVerificationError("No signature matches this body and secret");

  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new OnbWebhookVerificationError("The webhook's body is not JSON");
  }
  if (typeof event !== "object" || event === null || typeof (event as { type?: unknown }).type !== "string")
    throw new OnbWebhookVerificationError("The webhook's body is not an event");
  return event as WebhookEvent;
}

/** `onb.webhooks`: what a webhook receiver needs. */
export const webhookHelpers = {
  verify: verifyWebhook,
};
