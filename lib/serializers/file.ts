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

const mime = { jpg: "image/jpeg", png: "image/png", pdf: "application/pdf" } as const;

/** How a file's bytes are served (the API's /contents and the dashboard's download): an attachment, never rendered. */
export function fileDownloadHeaders(row: Pick<FileRow, "type" | "filename">, size: number): Record<string, string> {
  const name = encodeURIComponent(row.filename);
  return {
    "Content-Type": mime[row.type as keyof typeof mime] ?? "application/octet-stream",
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
}
