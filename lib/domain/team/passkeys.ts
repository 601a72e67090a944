import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, eq, gt, isNull } from "drizzle-orm";

import { clock } from "../../clock";
import { userFactors, webauthnChallenges } from "../../db/schema";
import type { DbOrTx } from "../../db/types";
import { env } from "../../env";
import { AppError } from "../../errors";
import { createId } from "../../ids";

// Passkeys (WebAuthn) through @simplewebauthn/server: the browser's authenticator signs a one-use
// challenge (five minutes) with a key that never leaves it; we keep its public key and counter. The
// relying party is the dashboard's own origin (PUBLIC_BASE_URL): a passkey made there works there.

const CHALLENGE_SECONDS = 5 * 60;
const RP_NAME = "Onboard";

/** The relying party: the dashboard's origin and its host name. */
/** The WebAuthn library, loaded on first use: most processes never see a passkey. */
const webauthn = () => import("@simplewebauthn/server");

export function relyingParty() {
  const origin = new URL(env.PUBLIC_BASE_URL).origin;
  return { origin, rpID: new URL(origin).hostname };
}

async function keepChallenge(db: DbOrTx, userId: string, purpose: "register" | "sign_in", challenge: string) {
  await db.insert(webauthnChallenges).values({
    id: createId("wac"),
    userId,
    purpose,
    challenge,
    expiresAt: new Date(clock.ms() + CHALLENGE_SECONDS * 1000),
  });
}

/** Spends the member's challenge the response answers (once, unexpired); whether it was one. */
async function spendChallenge(db: DbOrTx, userId: string, purpose: "register" | "sign_in", clientDataJSON: string) {
  let challenge: unknown;
  try {
    challenge = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")).challenge;
  } catch {
    return false;
  }
  if (typeof challenge !== "string") return false;
  const spent = await db
    .update(webauthnChallenges)
    .set({ usedAt: clock.now() })
    .where(
      and(
        eq(webauthnChallenges.userId, userId),
        eq(webauthnChallenges.purpose, purpose),
        eq(webauthnChallenges.challenge, challenge),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, clock.now()),
      ),
    )
    .returning({ id: webauthnChallenges.id });
  return spent.length > 0 ? challenge : false;
}

const passkeysOf = (db: DbOrTx, userId: string) =>
  db
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, "passkey")));

const refused = () =>
  new AppError("invalid_second_factor", "The passkey was not accepted: try again, or use another way to sign in");

/** What the browser needs to make a passkey for the member (its existing ones excluded). */
export async function passkeyRegistrationOptions(db: DbOrTx, member: { userId: string; email: string }) {
  const { rpID } = relyingParty();
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: member.email,
    userID: new TextEncoder().encode(member.userId),
    attestationType: "none",
    excludeCredentials: (await passkeysOf(db, member.userId)).map((p) => ({
      id: p.credentialId ?? "",
      transports: (p.transports ?? []) as AuthenticatorTransportFuture[],
    })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await keepChallenge(db, member.userId, "register", options.challenge);
  return options;
}

/** Keeps the passkey the browser made, once its answer to our challenge checks out. */
export async function registerPasskey(db: DbOrTx, userId: string, response: unknown, name: unknown) {
  const answer = response as RegistrationResponseJSON;
  const challenge = await spendChallenge(db, userId, "register", answer?.response?.clientDataJSON ?? "");
  if (!challenge) throw refused();
  const { origin, rpID } = relyingParty();
  const verified = await (
    await webauthn()
  )
    .verifyRegistrationResponse({
      response: answer,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    })
    .catch(() => null);
  if (!verified?.verified || !verified.registrationInfo) throw refused();
  const { credential } = verified.registrationInfo;
  const id = createId("fac");
  const label = typeof name === "string" && name.trim() ? name.trim().slice(0, 60) : "Passkey";
  await db.insert(userFactors).values({
    id,
    userId,
    kind: "passkey",
    name: label,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: credential.transports ?? [],
    confirmedAt: clock.now(),
  });
  return id;
}

/** A sign-in challenge for the member's passkeys (null: it has none). */
export async function passkeySignInOptions(db: DbOrTx, userId: string) {
  const keys = await passkeysOf(db, userId);
  if (keys.length === 0) return null;
  const { rpID } = relyingParty();
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    rpID,
    allowCredentials: keys.map((p) => ({
      id: p.credentialId ?? "",
      transports: (p.transports ?? []) as AuthenticatorTransportFuture[],
    })),
    userVerification: "preferred",
  });
  await keepChallenge(db, userId, "sign_in", options.challenge);
  return options;
}

/** Whether `response` signs our challenge with one of the member's passkeys: the factor's id, or null. */
export async function usePasskey(db: DbOrTx, userId: string, response: unknown) {
  const answer = response as AuthenticationResponseJSON;
  if (typeof answer?.id !== "string") return null;
  const [key] = (await passkeysOf(db, userId)).filter((p) => p.credentialId === answer.id);
  if (!key?.publicKey) return null;
  const challenge = await spendChallenge(db, userId, "sign_in", answer.response?.clientDataJSON ?? "");
  if (!challenge) return null;
  const { origin, rpID } = relyingParty();
  const verified = await (
    await webauthn()
  )
    .verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.credentialId ?? "",
        publicKey: new Uint8Array(Buffer.from(key.publicKey, "base64url")),
        counter: key.counter ?? 0,
        transports: (key.transports ?? []) as AuthenticatorTransportFuture[],
      },
      requireUserVerification: false,
    })
    .catch(() => null);
  if (!verified?.verified) return null;
  await db
    .update(userFactors)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: clock.now() })
    .where(eq(userFactors.id, key.id));
  return key.id;
}
