import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { KeyPermissions, Role } from "../../auth/permissions";
import type { AccountSettings, MerchantDefaults } from "../../schemas/account";
import type { DefaultCapabilities } from "../../schemas/capabilities";
import type { CostProfile } from "../../schemas/cost-profile";
import type { StoredPayoutBankAccount } from "../../schemas/payout-bank-account";
import { FIRST_API_VERSION } from "../../versions/versions";

// One table for every kind of account: the operator (`platform`), ISVs and their merchants.
export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    type: text("type", { enum: ["platform", "isv", "merchant"] }).notNull(),
    // The account that owns this one: an ISV for a merchant, the platform for an ISV.
    parentId: text("parent_id"),
    // The public half of an API key pair (HTTP Basic user name).
    sid: text("sid").notNull(),
    name: text("name").notNull(),
    // An ISV's branding, pricing and settings, as PATCH /v1/account validated them (null on other accounts).
    defaults: jsonb("defaults").$type<MerchantDefaults>(),
    defaultCapabilities: jsonb("default_capabilities").$type<DefaultCapabilities>(),
    settings: jsonb("settings").$type<AccountSettings>(),
    /** What the platform charges this ISV (docs/reference.md section 19), set by the operator; null: the defaults. */
    costProfile: jsonb("cost_profile").$type<CostProfile>(),
    /** The API version the account is pinned to (section 22): the latest when it was made. */
    apiVersion: text("api_version").notNull().default(FIRST_API_VERSION),
    /** An ISV's bank account for its residuals (section 19), its number encrypted; null: none given. */
    payoutBankAccount: jsonb("payout_bank_account").$type<StoredPayoutBankAccount>(),
    /** The custom domain the ISV asked for (defaults.custom_domain); it serves pages only once verified. */
    customDomain: text("custom_domain"),
    /** The value the ISV publishes in a DNS TXT record to prove it controls customDomain. */
    customDomainToken: text("custom_domain_token"),
    customDomainVerifiedAt: timestamp("custom_domain_verified_at", { withTimezone: true, mode: "date" }),
    /** The largest refund (cents) a member with the `support` role may make; the owner sets it on the Team page. */
    supportRefundLimit: integer("support_refund_limit").notNull().default(50_000),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_sid_key").on(t.sid),
    index("accounts_parent_idx").on(t.parentId),
    // Any number of accounts may ask for a domain; one may have it verified.
    uniqueIndex("accounts_verified_custom_domain_key")
      .on(t.customDomain)
      .where(sql`${t.customDomainVerifiedAt} is not null`),
  ],
);

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** The member's name, as the invitation's acceptance gave it (null: the account's first user). */
    name: text("name"),
    /** What the member may do (lib/auth/permissions.ts); an account's first user is its owner. */
    role: text("role").$type<Role>().notNull().default("owner"),
    /** A sign-in token issued before this (a password reset) no longer opens anything. */
    sessionsValidAfter: timestamp("sessions_valid_after", { withTimezone: true, mode: "date" }),
    /** Removed from the team: signs in no more; the row stays for the audit log's sake. */
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // One live member per address; a removed member's address may be invited again.
    uniqueIndex("users_email_key")
      .on(t.email)
      .where(sql`${t.removedAt} is null`),
    index("users_account_idx").on(t.accountId),
  ],
);

/**
 * An invitation to an ISV's team (docs/reference.md section 23): a single-use link e-mailed to the
 * address, 7 days; only the token's SHA-256 digest is kept.
 */
export const memberInvitations = pgTable(
  "member_invitations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    role: text("role").$type<Role>().notNull(),
    invitedBy: text("invited_by")
      .notNull()
      .references(() => users.id),
    tokenDigest: text("token_digest").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("member_invitations_token_key").on(t.tokenDigest),
    index("member_invitations_account_idx").on(t.accountId, t.createdAt),
  ],
);

/**
 * A dashboard user's sign-in (docs/reference.md section 3): its id is the sign-in token's `sid`, and
 * the token opens the dashboard and `/v1` only while its row is not ended (sign-out ends it at once,
 * not at the token's expiry an hour later).
 */
export type SessionStage = "complete" | "second_factor" | "enrol";
export type SignInFactor = "totp" | "passkey" | "recovery_code";

export const userSessions = pgTable(
  "user_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    /** The browser or client that signed in (its User-Agent, cut to 200 characters), for the settings' list. */
    userAgent: text("user_agent"),
    clientAddress: text("client_address"),
    /**
     * `complete` opens the dashboard and `/v1`; `second_factor` (the password was right, a factor is
     * due) and `enrol` (an owner or admin without a factor) open only that step, for ten minutes.
     */
    stage: text("stage").$type<SessionStage>().notNull().default("complete"),
    /** The second factor this sign-in used (null: a password alone, for a member with none). */
    factor: text("factor").$type<SignInFactor>(),
    /** The last request made with it (written at most once a minute), for the settings' list. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId), index("user_sessions_expires_idx").on(t.expiresAt)],
);

/** "Forgot your password?": a single-use link by e-mail, 30 minutes; only its SHA-256 digest is kept. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    tokenDigest: text("token_digest").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("password_resets_token_key").on(t.tokenDigest), index("password_resets_user_idx").on(t.userId)],
);

/**
 * The "this wasn't me" links e-mailed to every user of an ISV when its payout bank account changes
 * (docs/reference.md section 19): single use, only the token's SHA-256 digest kept; an operator's
 * release of the frozen payouts ends every link still open (`endedAt`).
 */
export const accountChangeReports = pgTable(
  "account_change_reports",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    tokenDigest: text("token_digest").notNull(),
    /** The bank account the change gave (its last four), as the notice named it. */
    last4: text("last4").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_change_reports_token_key").on(t.tokenDigest),
    index("account_change_reports_account_idx").on(t.accountId),
  ],
);

// Secret keys are stored as a SHA-256 digest only; the secret is shown once, when created.
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    secretDigest: text("secret_digest").notNull(),
    last4: text("last4").notNull(),
    /** A merchant's key made in its home: the session that made it (such keys end when the ISV signs the merchant out everywhere, or a change is reported). */
    homeSessionId: text("home_session_id"),
    /** What the ISV calls the key ("Production server", "Zapier"), shown on the Developers page. */
    name: text("name").notNull().default("Standard key"),
    /** A restricted key's access per resource (section 23); null: a standard key, the whole account. */
    permissions: jsonb("permissions").$type<KeyPermissions>(),
    /** When the key last authenticated a request (written at most once a minute per key). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    /** A rolled key's end: it keeps working until then (a chosen time, up to 7 days). */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type MemberInvitationRow = typeof memberInvitations.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
