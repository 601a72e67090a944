import { errors, jwtVerify, SignJWT } from "jose";

import { platformSecrets } from "../secrets-store";

/** The signing key, encoded once from the platform's secret (again if it changed: a test file's own data directory). */
let key: { bytes: Uint8Array; from: object } | undefined;
function signingKey() {
  const secrets = platformSecrets();
  if (key?.from !== secrets) key = { bytes: new TextEncoder().encode(secrets.jwt_secret), from: secrets };
  return key.bytes;
}

export const USER_TOKEN_TTL_SECONDS = 3600;

export type UserClaims = { kind: "user"; sub: string; account_id: string; sid?: string };

/**
 * A dashboard user's sign-in token; its `iat` is when the password was checked (`issuedAt`: Unix
 * seconds, now by default), its `sid` the session row that sign-out ends.
 */
export async function signUserToken(
  claims: Omit<UserClaims, "kind">,
  ttlSeconds = USER_TOKEN_TTL_SECONDS,
  issuedAt = Math.floor(Date.now() / 1000),
) {
  return new SignJWT({ kind: "user", account_id: claims.account_id, ...(claims.sid ? { sid: claims.sid } : {}) })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .setAudience("api")
    .sign(signingKey());
}

export async function signToken(
  payload: Record<string, unknown>,
  subject: string,
  ttlSeconds: number,
  audience: string,
) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .setAudience(audience)
    .sign(signingKey());
}

/** Verifies signature, expiry and audience; returns null for any bad token. */
export async function verifyToken(
  token: string,
  audience: string,
  /** Seconds past its expiry a token still passes (to say "expired" rather than "unknown"). */
  clockTolerance = 0,
): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), { audience, algorithms: ["HS256"], clockTolerance });
    return payload as Record<string, unknown>;
  } catch (error) {
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
