import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

import { processorCallKinds } from "../../schemas/payment-values";

// Every call to a payment processor that moves money (docs/reference.md section 10, "Calls to the
// processor"): written and committed before the call, its id the processor's idempotency key, its
// outcome recorded after in the transaction that records what it did. A call left `started` (a crash,
// a timeout) is settled by the job `processor_call_recover`, which asks the processor by the key.
export const processorCalls = pgTable(
  "processor_calls",
  {
    id: text("id").primaryKey(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id").notNull(),
    /** `authorize` (a card), `debit` (a bank account), `refund`. */
    kind: text("kind", { enum: processorCallKinds }).notNull(),
    processor: text("processor").notNull(),
    amount: integer("amount").notNull(),
    /** What it is for: the payment request (authorize, debit) or the refund. */
    subjectId: text("subject_id").notNull(),
    /** `started` until recorded: `recorded` (what it did is written), `cancelled` (an authorization nothing recorded, voided). */
    status: text("status", { enum: ["started", "recorded", "cancelled"] }).notNull(),
    /** The processor's answer once known: approved or not, its reference, the decline's reason. */
    outcome: jsonb("outcome").$type<{ approved: boolean; reference?: string; reason?: string }>(),
    /** How many times the recovery job asked the processor about it. */
    attempts: integer("attempts").notNull().default(0),
    /** When a cancelled authorization's approval was voided at the processor. */
    voidedAt: timestamp("voided_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("processor_calls_subject_idx").on(t.subjectId),
    index("processor_calls_started_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'started'`),
  ],
);

export type ProcessorCallRow = typeof processorCalls.$inferSelect;
