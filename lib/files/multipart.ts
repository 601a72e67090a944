import { AppError } from "../errors";

// A multipart/form-data body (RFC 7578) split over the bytes already read, without copying them: the
// boundaries are found with Buffer.indexOf (native, memchr-fast) and the file is a view into the
// body. undici's Request.formData() took 75 ms of the main thread for a 10 MB file, this takes a
// few; it is the whole of an upload's parsing (lib/files/upload-gate.ts read the body first).

export type MultipartFile = { field: string; filename: string; type: string; data: Buffer };
export type MultipartForm = { fields: Record<string, string>; files: MultipartFile[] };

const malformed = (why: string) =>
  new AppError("invalid_request", `The body is not valid multipart/form-data (${why}); was the upload cut off?`);

/** The boundary a Content-Type names (quoted or not), or null. */
export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/** A header parameter (`name="..."`, `filename="..."`), with its quoted-pair escapes undone. */
function param(header: string, key: string): string | null {
  const match = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]+)`, "i").exec(header);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? null);
}

export function parseMultipart(body: Buffer, contentType: string): MultipartForm {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw malformed("no boundary");
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at === -1) throw malformed("no part");
  at += delimiter.length;
  const form: MultipartForm = { fields: {}, files: [] };
  for (let parts = 0; ; parts++) {
    if (parts > 20) throw malformed("too many parts");
    // After a delimiter: "--" closes the body, CRLF opens a part.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return form;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw malformed("a delimiter without its line end");
    const headersEnd = body.indexOf("\r\n\r\n", at + 2);
    if (headersEnd === -1 || headersEnd - at > 8192) throw malformed("a part's headers do not end");
    const headers = body
      .subarray(at + 2, headersEnd)
      .toString("utf8")
      .split("\r\n");
    const disposition = headers.find((h) => /^content-disposition:/i.test(h));
    const type = headers.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, "") ?? "";
    const name = disposition ? param(disposition, "name") : null;
    if (!disposition || name === null) throw malformed("a part without a name");
    const start = headersEnd + 4;
    const end = body.indexOf(next, start);
    if (end === -1) throw malformed("a part does not end");
    const data = body.subarray(start, end);
    const filename = param(disposition, "filename");
    if (filename !== null) form.files.push({ field: name, filename, type, data });
    else form.fields[name] = data.toString("utf8");
    at = end + next.length;
  }
}
