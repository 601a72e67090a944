import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { refundReasons, refundStatuses } from "../../schemas/payment-values";
import { merchants } from "./merchants";
import { charges } from "./payments";

// A refund of part or all of a charge (docs/reference.md section 10). The charge's `amount_refunded` is
// raised in the transaction that writes it (`pending`), by a conditional update that can never pass
// `amount_captured`; the processor's answer makes it `succeeded` (its ledger posting) or `failed` (the
// amount given back to the charge). Pending refunds are never settled.
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    chargeId: text("charge_id")
      .notNull()
      .references(() => charges.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    reason: text("reason", { enum: refundReasons }),
    status: text("status", { enum: refundStatuses }).notNull(),
    processorReference: text("processor_reference"),
    /** Why the processor refused it (a `failed` refund). */
    failureReason: text("failure_reason"),
    /** The request's Idempotency-Key, digested in the caller's namespace: a retry after a crash resumes this refund. */
    requestKey: text("request_key"),
    /** What it gave back to the merchant of the charge's platform fee (section 19). */
    platformFeeRefund: integer("platform_fee_refund").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("refunds_seq_key").on(t.seq),
    index("refunds_isv_seq_idx").on(t.isvAccountId, t.seq),
    index("refunds_isv_created_idx").on(t.isvAccountId, t.createdAt),
    index("refunds_charge_idx").on(t.chargeId, t.seq),
    uniqueIndex("refunds_request_key").on(t.requestKey),
  ],
);

export type RefundRow = typeof refunds.$inferSelect;
