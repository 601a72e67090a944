import { sql } from "drizzle-orm";
import {
  bigserial,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import { merchants } from "./merchants";

/** bytea as a Node Buffer (PGlite answers a Uint8Array: wrapped without a copy). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

// A merchant's uploaded document (docs/reference.md, files): what it is, never its bytes (those are
// in file_contents, encrypted, behind lib/files/store.ts).
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    isvAccountId: text("isv_account_id").notNull(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id),
    purpose: text("purpose").notNull(),
    subject: text("subject"),
    filename: text("filename").notNull(),
    size: integer("size").notNull(),
    type: text("type").notNull(),
    // SHA-256 of the stored bytes: the same document sent twice for one merchant is refused.
    sha256: text("sha256").notNull(),
    /** SHA-256 of the bytes as sent (before an image is cleaned): a duplicate is refused before it is decoded. */
    originalSha256: text("original_sha256"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("files_seq_key").on(t.seq),
    // One file per merchant, purpose and content: the same document may serve two purposes (an ID
    // that is also a dispute's evidence), never twice the same one.
    uniqueIndex("files_merchant_purpose_sha256_key").on(t.merchantId, t.purpose, t.sha256),
    index("files_merchant_idx").on(t.merchantId, t.seq),
    index("files_merchant_original_idx").on(t.merchantId, t.purpose, t.originalSha256),
    check("files_type_check", sql`${t.type} in ('jpg', 'png', 'pdf')`),
    check("files_size_check", sql`${t.size} > 0 and ${t.size} <= 10485760`),
  ],
);

// The bytes of a file, AES-256-GCM with the sensitive-field keys (lib/crypto/field-encryption.ts):
// in the database by default, so that they travel with PostgreSQL to every instance.
export const fileContents = pgTable("file_contents", {
  fileId: text("file_id")
    .primaryKey()
    .references(() => files.id, { onDelete: "cascade" }),
  content: bytea("content").notNull(),
});

export type FileRow = typeof files.$inferSelect;
