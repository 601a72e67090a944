import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { Encrypted } from "../../crypto/field-encryption";
import { users } from "./accounts";

// The second factor of a dashboard sign-in (docs/reference.md section 23): an authenticator app
// (TOTP, RFC 6238) or passkeys (WebAuthn), and ten single-use recovery codes.

export type FactorKind = "totp" | "passkey";

export const userFactors = pgTable(
  "user_factors",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<FactorKind>().notNull(),
    /** What the member called it ("Authenticator app", "MacBook passkey"). */
    name: text("name").notNull(),
    /** TOTP: the shared secret (base32), encrypted at rest; passkey: null. */
    secret: jsonb("secret").$type<Encrypted>(),
    /** TOTP: the last 30-second step a code was accepted for (a code is used once, and never an older one). */
    lastUsedStep: integer("last_used_step"),
    /** Passkey: the credential's id (base64url), its COSE public key (base64url) and signature counter. */
    credentialId: text("credential_id"),
    publicKey: text("public_key"),
    counter: integer("counter"),
    transports: jsonb("transports").$type<string[]>(),
    /** A TOTP secret is shown, then confirmed by a first code; an unconfirmed one signs nothing in. */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("user_factors_user_idx").on(t.userId), uniqueIndex("user_factors_credential_key").on(t.credentialId)],
);

/** Ten per member, shown once; only a keyed digest is kept; each signs in once. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    digest: text("digest").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("recovery_codes_user_idx").on(t.userId), uniqueIndex("recovery_codes_digest_key").on(t.digest)],
);

/** A WebAuthn challenge (registration or sign-in), used once, for five minutes. */
export const webauthnChallenges = pgTable("webauthn_challenges", {
  id: text("id").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id),
  purpose: text("purpose").$type<"register" | "sign_in">().notNull(),
  challenge: text("challenge").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
});

export type UserFactorRow = typeof userFactors.$inferSelect;
