import { sql } from "drizzle-orm";
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import type { Locale } from "../../i18n/locales";
import type { DefaultCapabilities } from "../../schemas/capabilities";
import { imeiStatuses, onboardingStatuses } from "../../schemas/vocabulary";
import type { StoredCheck } from "../../verification/checks";
import { accounts } from "./accounts";

/** The merchant's keys and processors, made on approval. */
export type PaymentKeys = {
  pub_api_key: string;
  api_key_last4: string;
  gateway_merchant_id: string;
  processors: { id: string; processor_type: "CREDIT_CARD" | "ACH" }[];
};

/** Owner one's signature of the agreement: who, when, from where, on which text. */
export type AgreementSignature = {
  name: string;
  signed_at: string;
  ip: string;
  user_agent: string;
  version: string;
  locale: Locale;
  text_sha256: string;
  /**
   * The agreement exactly as signed, as the JSON text whose SHA-256 is text_sha256 (a string: jsonb
   * would reorder an object's keys): what the merchant signed stays readable, whatever changes later.
   */
  document_json?: string;
};

export const merchants = pgTable(
  "merchants",
  {
    id: text("id").primaryKey(),
    // Every merchant belongs to one ISV; every query filters on it (tenant isolation).
    isvAccountId: text("isv_account_id")
      .notNull()
      .references(() => accounts.id),
    leadId: bigserial("lead_id", { mode: "number" }).notNull(),
    phone: text("phone").notNull(),
    agent: integer("agent"),
    status: text("lead_onboarding_status", { enum: onboardingStatuses }).notNull(),
    deactivated: boolean("deactivated").notNull().default(false),
    /** The onboarding information; sensitive values are AES-256-GCM envelopes ({ $enc, last4 }). */
    application: jsonb("application").$type<Record<string, unknown>>().notNull(),
    defaultCapabilities: jsonb("default_capabilities").$type<DefaultCapabilities>().notNull(),
    /**
     * Underwriting's requests: { currently_due, errors } (null: computed from what is missing), and
     * `asked`, every field this round of requests asked for, answered or not (the portal lists their
     * steps until the merchant submits again).
     */
    requirements: jsonb("requirements").$type<{
      currently_due: string[];
      errors: { field: string; code: string; message: string }[];
      asked?: string[];
    }>(),
    payment: jsonb("payment")
      .$type<{ tokenizer_publishable_key: string; tokenizer_active: boolean; terminal_id: string | null }>()
      .notNull(),
    /** Made on approval (docs/reference.md section 8); the secret key itself is never stored here. */
    paymentKeys: jsonb("payment_keys").$type<PaymentKeys>(),
    deviceSelection: text("device_selection", { enum: ["selected", "skipped"] }),
    deviceId: text("device_id"),
    deviceImei: text("device_imei"),
    /** Who entered the IMEI: only the ISV's own IMEIs deduplicate POST /v1/merchants (null: before this was kept, the ISV). */
    deviceImeiSource: text("device_imei_source", { enum: ["isv", "merchant"] }),
    deviceCatalogId: text("device_catalog_id"),
    deviceImeiStatus: text("device_imei_status", { enum: imeiStatuses }),
    deviceCreatedAt: timestamp("device_created_at", { withTimezone: true, mode: "date" }),
    deviceUpdatedAt: timestamp("device_updated_at", { withTimezone: true, mode: "date" }),
    agreement: jsonb("agreement").$type<AgreementSignature>(),
    /** The verification checks (docs/reference.md section 14), one per type and subject; lib/verification/checks.ts. */
    verification: jsonb("verification").$type<StoredCheck[]>().notNull().default([]),
    /** The last underwriting decision: { outcome, reason, decided_at, decided_by }. */
    underwriting: jsonb("underwriting").$type<Record<string, unknown>>(),
    /** The merchant's own account (its key pair), made when it is approved. */
    merchantAccountId: text("merchant_account_id"),
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date" }),
    /** When underwriting (or an operator) approved it: the dashboard's approvals and time to approval. */
    approvedAt: timestamp("approved_at", { withTimezone: true, mode: "date" }),
    /** "This wasn't me" links issued up to this moment no longer work: set when one is used (single use) and by the operator's release. */
    changeReportsValidAfter: timestamp("change_reports_valid_after", { withTimezone: true, mode: "date" }),
    /** A new contact e-mail waiting for its confirmation (the link sent to it); sign-in links keep going to the old one. */
    pendingContactEmail: jsonb("pending_contact_email").$type<{ email: string; nonce: string; expires_at: string }>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("merchants_lead_id_key").on(t.leadId),
    index("merchants_isv_lead_idx").on(t.isvAccountId, t.leadId),
    // The dashboard's overview counts each of these by day (lib/domain/dashboard/overview.ts).
    index("merchants_isv_created_idx").on(t.isvAccountId, t.createdAt),
    index("merchants_isv_submitted_idx").on(t.isvAccountId, t.submittedAt),
    index("merchants_isv_approved_idx").on(t.isvAccountId, t.approvedAt),
    // The tokenizer authenticates by the merchant's publishable key.
    uniqueIndex("merchants_tokenizer_key").on(sql`(${t.payment}->>'tokenizer_publishable_key')`),
    // One merchant per IMEI per ISV: concurrent creates with one IMEI make one merchant.
    uniqueIndex("merchants_isv_imei_key")
      .on(t.isvAccountId, t.deviceImei)
      .where(sql`${t.deviceImei} is not null`),
  ],
);

export const onboardingLinks = pgTable(
  "onboarding_links",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** SHA-256 of the opaque token in the url; the token itself is never stored. */
    tokenDigest: text("token_digest").notNull(),
    returnUrl: text("return_url"),
    refreshUrl: text("refresh_url"),
    state: text("state"),
    allowSkipDeviceSelection: boolean("allow_skip_device_selection"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    supersededAt: timestamp("superseded_at", { withTimezone: true, mode: "date" }),
    firstOpenedAt: timestamp("first_opened_at", { withTimezone: true, mode: "date" }),
    /**
     * The link this one continues: underwriting's information request makes a portal link that
     * continues the link the merchant submitted through, so that the page after submitting (on the
     * older link's session) can move the merchant into the portal there and then. Null otherwise.
     */
    continuesLinkId: text("continues_link_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("onboarding_links_token_key").on(t.tokenDigest),
    index("onboarding_links_merchant_idx").on(t.merchantId, t.createdAt),
    index("onboarding_links_isv_opened_idx").on(t.isvAccountId, t.firstOpenedAt),
  ],
);

/**
 * Single-use sign-in links to the merchant's home (docs/reference.md section 15): made by the ISV
 * (POST /v1/merchants/{id}/login_links) or e-mailed from the home's sign-in page; 5 minutes each.
 */
export const merchantLoginTokens = pgTable(
  "merchant_login_tokens",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** SHA-256 of the opaque token in the url; the token itself is never stored. */
    tokenDigest: text("token_digest").notNull(),
    via: text("via", { enum: ["isv", "email"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("merchant_login_tokens_token_key").on(t.tokenDigest),
    index("merchant_login_tokens_merchant_idx").on(t.merchantId, t.createdAt),
  ],
);

/**
 * The merchant home's sessions (docs/reference.md section 15): the cookie's signed token names one of
 * these, and a session is valid only while its row is neither expired nor revoked (sign-out,
 * deactivation, a bank or contact change, the ISV's revocation, "this wasn't me").
 */
export const merchantSessions = pgTable(
  "merchant_sessions",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    /** How it began: a login link the ISV made (the ISV acting for the merchant), or one e-mailed to the merchant. */
    via: text("via", { enum: ["isv", "email"] }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedReason: text("revoked_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("merchant_sessions_merchant_idx").on(t.merchantId, t.createdAt)],
);

// Row types live beside their tables (the domain and the serializers import them from here).
export type MerchantRow = typeof merchants.$inferSelect;
export type OnboardingLinkRow = typeof onboardingLinks.$inferSelect;
export type MerchantSessionRow = typeof merchantSessions.$inferSelect;
