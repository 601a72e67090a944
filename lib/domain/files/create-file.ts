import { createHash } from "node:crypto";

import { and, desc, eq, or } from "drizzle-orm";

import { one } from "../../db/one";
import { files, merchants } from "../../db/schema";
import { type Db, type DbOrTx } from "../../db/types";
import { AppError, invalid, notFound } from "../../errors";
import { inspectUpload } from "../../files/inspect";
import { databaseFileStore, type FileStore } from "../../files/store";
import { countUpload } from "../../files/upload-gate";
import { createId } from "../../ids";
import type { FilePurpose } from "../../schemas/files";
import type { OwnerKey } from "../../schemas/vocabulary";
import { recordAudit } from "../audit/record-audit";
import { findScopedMerchant, type Scope, withinScope } from "../scope";
import { attachDocument, checkAwaitingDocument } from "../verification/attach-document";

const duplicate = (purpose: string, earlier: string | undefined) =>
  new AppError(
    "file_duplicate",
    `This document was already uploaded for this merchant with purpose ${purpose}${earlier ? `: it is ${earlier}, use that file` : ""}`,
    { param: "file" },
  );

/** The merchant's file of this purpose with these bytes (as sent, or as kept), if one exists. */
export async function sameFile(db: DbOrTx, merchantId: string, purpose: FilePurpose, bytes: Buffer) {
  const digest = createHash("sha256").update(bytes).digest("hex");
  const [same] = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.merchantId, merchantId),
        eq(files.purpose, purpose),
        or(eq(files.originalSha256, digest), eq(files.sha256, digest)),
      ),
    )
    .limit(1);
  return same ?? null;
}

/** A name safe to show and to offer as a download's name: no path, no control characters, 120 at most. */
export function cleanFilename(name: string | undefined, type: string): string {
  const last = (name ?? "").split(/[\\/]/).at(-1) ?? "";
  const base = last
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim()
    .slice(0, 120);
  return base || `document.${type}`;
}

/**
 * POST /v1/files: the bytes recognised and cleaned (lib/files/inspect.ts), then the file's row and
 * its encrypted bytes written in one transaction. An identity document names its owner (`subject`,
 * one the application has); the same document twice for one merchant is refused (409). An identity,
 * business or bank document is taken only while its check asks for one (409 `document_not_needed`),
 * and runs that check again.
 */
export async function createFile(
  db: Db,
  scope: Scope,
  input: {
    purpose: FilePurpose;
    merchant_id?: string;
    subject?: OwnerKey;
    filename?: string;
    bytes: Buffer;
  },
  store: FileStore = databaseFileStore,
) {
  const merchant = await findScopedMerchant(db, scope, input.merchant_id);
  const application = merchant.application as Record<string, unknown>;
  if (input.purpose === "identity_document" && !input.subject)
    throw invalid(
      "subject",
      "An identity document names its owner: subject owner_one to owner_four",
      "parameter_missing",
    );
  if (input.subject && !application[input.subject])
    throw invalid("subject", `The application has no ${input.subject}: a document cannot be about them`);
  // Said before the bytes are read; checked again under the merchant's lock below.
  checkAwaitingDocument(merchant, { purpose: input.purpose, subject: input.subject ?? null });
  // Every upload counts against the merchant's day, whatever comes of it.
  await countUpload(merchant.id);
  // The same bytes again for the same purpose: refused before an image is decoded (the costly part).
  const originalSha256 = createHash("sha256").update(input.bytes).digest("hex");
  const same = await sameFile(db, merchant.id, input.purpose, input.bytes);
  if (same) throw duplicate(input.purpose, same.id);
  // The heavy work in a slot of the process's, in turn with the other merchants waiting.
  const { type, bytes } = await inspectUpload(input.bytes, merchant.id);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const id = createId("file");
  return db.transaction(async (tx) => {
    const locked = one(await tx.select().from(merchants).where(eq(merchants.id, merchant.id)).for("update"));
    checkAwaitingDocument(locked, { purpose: input.purpose, subject: input.subject ?? null });
    const inserted = await tx
      .insert(files)
      .values({
        id,
        isvAccountId: merchant.isvAccountId,
        merchantId: merchant.id,
        purpose: input.purpose,
        subject: input.subject ?? null,
        filename: cleanFilename(input.filename, type),
        size: bytes.length,
        type,
        sha256,
        originalSha256,
      })
      .onConflictDoNothing({ target: [files.merchantId, files.purpose, files.sha256] })
      .returning();
    const row = inserted[0];
    if (!row) {
      const [earlier] = await tx
        .select({ id: files.id })
        .from(files)
        .where(and(eq(files.merchantId, merchant.id), eq(files.purpose, input.purpose), eq(files.sha256, sha256)));
      throw duplicate(input.purpose, earlier?.id);
    }
    await store.put(tx, id, bytes);
    await recordAudit(tx, {
      accountId: merchant.isvAccountId,
      action: "file.created",
      resourceId: id,
      fields: ["purpose", ...(input.subject ? ["subject"] : [])],
    });
    // A document a verification check asked for runs that check again (lib/domain/verification).
    await attachDocument(tx, locked, row);
    return row;
  });
}

/** A file within the caller's scope (another ISV's, or another merchant's for a merchant session: 404). */
export async function findFile(db: DbOrTx, scope: Scope, id: string) {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), withinScope(files, scope)));
  if (!row) throw notFound("file", id);
  return row;
}

/** The file's bytes as stored (decrypted). */
export async function fileContent(db: DbOrTx, scope: Scope, id: string, store: FileStore = databaseFileStore) {
  const row = await findFile(db, scope, id);
  const bytes = await store.get(db, row.id);
  if (!bytes) throw notFound("file", id);
  return { row, bytes };
}

/** A merchant's files, newest first (the dashboard's merchant page). */
export async function listMerchantFiles(db: DbOrTx, scope: Scope, merchantId: string) {
  return db
    .select()
    .from(files)
    .where(and(withinScope(files, scope), eq(files.merchantId, merchantId)))
    .orderBy(desc(files.createdAt));
}
