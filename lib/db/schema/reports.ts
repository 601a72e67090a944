import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

import { reportStatuses, reportTypes } from "../../schemas/ledger-values";

/**
 * A report (docs/reference.md section 18): a CSV made by a job from the ledger for an interval, of
 * one merchant or all of an ISV's. Its CSV is kept with it once made (one snapshot: downloading it
 * again gives the same bytes).
 */
export const reports = pgTable(
  "reports",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    /** One merchant's (null: all of the ISV's merchants). */
    merchantId: text("merchant_id"),
    type: text("type", { enum: reportTypes }).notNull(),
    intervalStart: timestamp("interval_start", { withTimezone: true, mode: "date" }).notNull(),
    intervalEnd: timestamp("interval_end", { withTimezone: true, mode: "date" }).notNull(),
    status: text("status", { enum: reportStatuses }).notNull(),
    failureMessage: text("failure_message"),
    rowCount: integer("row_count"),
    csv: text("csv"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("reports_seq_key").on(t.seq),
    index("reports_isv_seq_idx").on(t.isvAccountId, t.seq),
    check("reports_interval", sql`${t.intervalStart} < ${t.intervalEnd}`),
    check("reports_succeeded_csv", sql`(${t.status} = 'succeeded') = (${t.csv} is not null)`),
  ],
);

export type ReportRow = typeof reports.$inferSelect;
