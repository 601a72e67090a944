import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";

import { AppError, type FieldError, formatPath, invalidFields } from "../../errors";
import { MAX_FILE_BYTES } from "../../files/inspect";
import { asUploadingClient, readUploadBody } from "../../files/upload-gate";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "./conn-info";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new AppError("body_too_large", "The request body is larger than 1 MB");

/**
 * Reads the body once (Hono keeps the text for the route's validator, which parses it again).
 * `declared`: the request says its length (at most the limit, checked before), so the body is read
 * straight from the socket (@hono/node-server's direct read: no web Request or stream is built).
 */
const checkJson =
  (declared: boolean): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || (!declared && !c.req.raw.body)) return next();
    const raw = await c.req.text();
    if (raw.trim() === "") {
      // No body at all (e.g. POST .../submit): a request without one, which validators read as {}.
      const headers = new Headers(c.req.raw.headers);
      headers.delete("content-type");
      headers.delete("content-length");
      c.req.raw = new Request(c.req.raw.url, { method, headers });
      return next();
    }
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (type !== "application/json" && !type.endsWith("+json")) {
      throw new AppError("unsupported_media_type", "Send the body as JSON with `Content-Type: application/json`");
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new AppError("invalid_json", "The request body is not valid JSON");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new AppError("invalid_json", "The request body must be a JSON object");
    }
    if (controlCharacter.test(raw)) {
      const errors: FieldError[] = [];
      findControlCharacters(parsed, [], errors);
      if (errors.length) throw invalidFields(errors);
    }
    return next();
  };

/**
 * NUL and the other C0 control characters (tab, line feed and carriage return excepted) and DEL:
 * no field takes them, and PostgreSQL refuses NUL in text (a 500 before this check). JSON writes
 * them as \u escapes, so the raw text is searched for those escapes (and the bytes themselves).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharacter = /\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF])|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const forbidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const message = (param: string) => `${param || "body"} must not contain control characters (such as NUL)`;

function findControlCharacters(value: unknown, path: (string | number)[], errors: FieldError[]) {
  if (typeof value === "string") {
    if (forbidden.test(value))
      errors.push({ param: formatPath(path), code: "parameter_invalid", message: message(formatPath(path)) });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findControlCharacters(item, [...path, i], errors));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (forbidden.test(key))
        errors.push({
          param: formatPath(path),
          code: "parameter_invalid",
          message: `${formatPath(path) || "body"} has a field name with control characters`,
        });
      else findControlCharacters(item, [...path, key], errors);
    }
  }
}

/** The same rule for the path and the query string (percent-encoded control characters). */
function checkUrl(url: string) {
  if (!/%(?:[01][0-9a-fA-F]|7[fF])/.test(url)) return;
  const parsed = new URL(url);
  const errors: FieldError[] = [];
  let path = "";
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    throw new AppError("invalid_request", "The request path is not valid percent-encoding");
  }
  if (forbidden.test(path))
    errors.push({
      param: "path",
      code: "parameter_invalid",
      message: "The request path must not contain control characters (such as NUL)",
    });
  for (const [key, value] of parsed.searchParams) {
    if (forbidden.test(key) || forbidden.test(value))
      errors.push({
        param: key.replace(forbidden, ""),
        code: "parameter_invalid",
        message: message(key.replace(forbidden, "")),
      });
  }
  if (errors.length) throw invalidFields(errors);
}

/**
 * Every body is JSON, at most 1 MB, so that 413, 415 and malformed JSON answer the same way on
 * every route, before any route runs. A declared length over the limit is refused before the body
 * is touched (touching it would leave an unread stream on the connection, which the server then
 * closes); a declared length within it is read directly (Node's HTTP parser holds the body to the
 * length declared); a body without a declared length (chunked) is counted as it streams
 * (hono/body-limit) and refused as soon as it passes the limit.
 */
const streamed: MiddlewareHandler<AppEnv> = every(
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  }),
  checkJson(false),
);
const direct = checkJson(true);
const checkBody: MiddlewareHandler<AppEnv> = (c, next) => {
  const length = c.req.header("content-length");
  if (Number(length ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const declared = length !== undefined && /^\d+$/.test(length) && c.req.header("transfer-encoding") === undefined;
  return declared ? direct(c, next) : streamed(c, next);
};

/** The multipart form around a 10 MB file (the form's fields and boundaries take a few hundred bytes). */
export const MAX_UPLOAD_BYTES = MAX_FILE_BYTES + 64 * 1024;
const fileTooLarge = () => new AppError("file_too_large", "The file is larger than 10 MB");

/**
 * POST /v1/files: a multipart form (else 415), at most 10 MB of file: a declared length past it is
 * refused before the body is read, a longer body as soon as it passes it. The body is read here,
 * within the upload's deadline and minimum rate, at most two at once per client address
 * (lib/files/upload-gate.ts); the heavy work that follows takes a processing slot of its own.
 */
const uploadBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "multipart/form-data")
    throw new AppError(
      "unsupported_media_type",
      "Send the file as multipart/form-data (fields file, purpose, merchant_id)",
    );
  const length = c.req.header("content-length");
  if (Number(length ?? 0) > MAX_UPLOAD_BYTES) throw fileTooLarge();
  const bytes = await asUploadingClient(`addr:${getConnInfoAddress(c)}`, () =>
    readUploadBody(c.req.raw.body, MAX_UPLOAD_BYTES),
  );
  // The handler (and the idempotency layer) read these bytes: the stream was consumed here.
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  (c.req.bodyCache as Record<string, unknown>).arrayBuffer = Promise.resolve(buffer);
  return next();
};

/** Requests without a body (GET, HEAD, OPTIONS) pass straight through: the hot read path pays nothing here. */
export const jsonBody: MiddlewareHandler<AppEnv> = (c, next) => {
  checkUrl(c.req.url);
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  return method === "POST" && c.req.path === "/v1/files" ? uploadBody(c, next) : checkBody(c, next);
};
