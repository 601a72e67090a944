import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { bankAccountTypes, fundingValues } from "../../schemas/payment-values";
import { merchants } from "./merchants";

// Customers and their saved payment methods (docs/reference.md section 21), owned by
// lib/domain/customers: a merchant's customer, and the cards and bank accounts the customer agreed
// to keep for later payments. A method keeps what the processor's vault answered (never a card or
// account number, never a CVC) and the consent as it was shown and accepted.

/** A sandbox test clock: the customers made on it, and their subscriptions, live at its `frozen_time`. */
export const testClocks = pgTable(
  "test_clocks",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    name: text("name"),
    frozenTime: timestamp("frozen_time", { withTimezone: true, mode: "date" }).notNull(),
    /** `ready`, or `advancing` while a job moves its objects to `advancing_to`. */
    status: text("status", { enum: ["ready", "advancing", "internal_failure"] }).notNull(),
    advancingTo: timestamp("advancing_to", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("test_clocks_isv_seq_idx").on(t.isvAccountId, t.seq)],
);
export type TestClockRow = typeof testClocks.$inferSelect;

export const customers = pgTable(
  "customers",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    /** Sandbox: the test clock this customer (and its subscriptions) lives on. */
    testClockId: text("test_clock_id").references(() => testClocks.id),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("customers_seq_key").on(t.seq),
    index("customers_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("customers_merchant_seq_idx").on(t.merchantId, t.seq),
    index("customers_merchant_email_idx").on(t.merchantId, sql`lower(${t.email})`),
  ],
);
export type CustomerRow = typeof customers.$inferSelect;

/** The customer's agreement to keep the method: the words shown, when, from where, and where. */
export type PaymentMethodConsent = {
  text: string;
  locale: "en" | "es";
  accepted_at: string;
  ip_address: string | null;
  /** `pay_page`: the box on the hosted pay page; `api`: the ISV's own page, by POST /v1/payment_methods. */
  source: "pay_page" | "api";
};

export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    type: text("type", { enum: ["card", "us_bank_account"] }).notNull(),
    brand: text("brand"),
    last4: text("last4").notNull(),
    expMonth: integer("exp_month"),
    expYear: integer("exp_year"),
    funding: text("funding", { enum: fundingValues }),
    bankName: text("bank_name"),
    accountType: text("account_type", { enum: bankAccountTypes }),
    routingNumber: text("routing_number"),
    fingerprint: text("fingerprint").notNull(),
    /** What the processor keeps to charge the method later (never the number or the CVC). */
    vault: jsonb("vault").$type<Record<string, unknown>>().notNull(),
    consent: jsonb("consent").$type<PaymentMethodConsent>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    detachedAt: timestamp("detached_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("payment_methods_seq_key").on(t.seq),
    index("payment_methods_customer_seq_idx").on(t.customerId, t.seq),
    // The same card (or account) saved twice for one customer is one method.
    uniqueIndex("payment_methods_customer_fingerprint_key")
      .on(t.customerId, t.fingerprint)
      .where(sql`${t.detachedAt} is null`),
    check(
      "payment_methods_card",
      sql`${t.type} <> 'card' or (${t.brand} is not null and ${t.expMonth} between 1 and 12 and ${t.expYear} is not null)`,
    ),
  ],
);
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;
