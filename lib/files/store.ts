import { eq } from "drizzle-orm";

import { decryptBytes, encryptBytes } from "../crypto/field-encryption";
import { fileContents } from "../db/schema";
import type { DbOrTx } from "../db/types";

/**
 * Where a file's bytes live: a small interface, so that an object store can take the database's
 * place. The database one (the default) keeps them encrypted beside their file's row, in the same
 * transaction, so a file is never listed without its bytes nor stored half-written.
 */
export interface FileStore {
  put(tx: DbOrTx, fileId: string, bytes: Buffer): Promise<void>;
  get(db: DbOrTx, fileId: string): Promise<Buffer | null>;
}

export const databaseFileStore: FileStore = {
  async put(tx, fileId, bytes) {
    await tx.insert(fileContents).values({ fileId, content: encryptBytes(bytes) });
  },
  async get(db, fileId) {
    const [row] = await db.select().from(fileContents).where(eq(fileContents.fileId, fileId));
    return row ? decryptBytes(row.content) : null;
  },
};
