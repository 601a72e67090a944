import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks, recomputed with node:crypto (not with the library that signs): HMAC-SHA256 of
 * `id.timestamp.body`, keyed by the base64 after `whsec_` (or the secret's UTF-8 bytes).
 */
export function verifySignature(secret: string, received: { headers: Record<string, string>; body: string }) {
  const key = secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : Buffer.from(secret, "utf8");
  const signed = `${received.headers["webhook-id"]}.${received.headers["webhook-timestamp"]}.${received.body}`;
  const expected = createHmac("sha256", key).update(signed).digest();
  const given = received.headers["webhook-signature"]!.split(" ").map((s) =>
    Buffer.from(s.replace(/^v1,/, ""), "base64"),
  );
  return given.some((g) => g.length === expected.length && timingSafeEqual(g, expected));
}
