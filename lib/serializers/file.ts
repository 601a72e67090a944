import type { FileRow } from "../db/schema";
import type { FileJson } from "../schemas/files";

export function serializeFile(row: FileRow): FileJson {
  return {
    object: "file",
    id: row.id,
    merchant_id: row.merchantId,
    purpose: row.purpose as FileJson["purpose"],
    subject: (row.subject as FileJson["subject"]) ?? null,
    filename: row.filename,
    size: row.size,
    type: row.type as FileJson["type"],
    created_at: row.createdAt.getTime(),
  };
}
