import type { FileRow } from "../db/schema";
import { downloadCsp } from "../net/csp";
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

/**
 * The name a download is saved under: the uploader's name without its extension, without control,
 * direction-override or path characters, with the extension of the type the bytes were recognised as
 * (a PDF/HTML polyglot uploaded as `evil.html` is saved as `evil.pdf`; `invoice\u202Efdp.exe` loses its
 * override). "document" when nothing printable is left.
 */
export function safeDownloadName(filename: string, type: string): string {
  const extension = type in mime ? type : "bin";
  const stem = filename
    .normalize("NFC")
    // C0/C1 controls, bidirectional marks, overrides and isolates, zero-width characters.
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, "")
    .replace(/[\\/:*?"<>|]/g, "_")
    .replace(/\.[^.]*$/, "")
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(0, 100);
  return `${stem || "document"}.${extension}`;
}

/** How a file's bytes are served (the API's /contents and the dashboard's download): an attachment, never rendered. */
export function fileDownloadHeaders(row: Pick<FileRow, "type" | "filename">, size: number): Record<string, string> {
  const name = encodeURIComponent(safeDownloadName(row.filename, row.type));
  return {
    "Content-Type": mime[row.type as keyof typeof mime] ?? "application/octet-stream",
    "Content-Length": String(size),
    "Content-Disposition": `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": downloadCsp,
  };
}
