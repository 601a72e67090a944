import { createHmac } from "node:crypto";

import { platformSecrets } from "../secrets-store";

/**
 * A stable fingerprint of a card number within one ISV (the same card gives the same fingerprint for
 * that ISV's merchants, and nothing another ISV can correlate): HMAC-SHA256 keyed by the platform.
 */
export function fingerprint(isvAccountId: string, number: string, kind: "card" | "bank" = "card") {
  return createHmac("sha256", platformSecrets().encryption_key)
    .update(`${kind}:${isvAccountId}:${number}`)
    .digest("base64url")
    .slice(0, 16);
}
