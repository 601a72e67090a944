import { Webhook } from "standardwebhooks";

/**
 * Standard Webhooks signing (docs/reference.md section 9): a `whsec_` secret's key is the base64 after
 * the prefix; any other secret's key is its UTF-8 bytes.
 */
export function signer(secret: string) {
  return secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(secret, { format: "raw" });
}

export function signedHeaders(secret: string, eventId: string, body: string, at = new Date()) {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": signer(secret).sign(eventId, timestamp, body),
  };
}
