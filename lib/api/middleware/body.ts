import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { AppError } from "../../errors";
import type { AppEnv } from "../context";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new AppError("body_too_large", "The request body is larger than 1 MB");

/** Reads the body once (Hono keeps the text for the route's validator, which parses it again). */
const checkJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS" || !c.req.raw.body) return next();
  const raw = await c.req.text();
  if (raw.trim() === "") {
    // No body at all (e.g. POST .../submit): a request without one, which validators read as {}.
    const headers = new Headers(c.req.raw.headers);
    headers.delete("content-type");
    headers.delete("content-length");
    c.req.raw = new Request(c.req.raw.url, { method, headers });
    return next();
  }
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
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
  return next();
};

/**
 * Every body is JSON, at most 1 MB (hono/body-limit), so that 413, 415 and malformed JSON answer
 * the same way on every route, before any route runs.
 */
const checkBody: MiddlewareHandler<AppEnv> = every(
  // A declared length over the limit is refused before the body stream is even created: touching
  // it would leave an unread stream on the connection, which the server then closes.
  async (c, next) => {
    if (Number(c.req.header("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    return next();
  },
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  }),
  checkJson,
);

/** Requests without a body (GET, HEAD, OPTIONS) pass straight through: the hot read path pays nothing here. */
export const jsonBody: MiddlewareHandler<AppEnv> = (c, next) => {
  const method = c.req.method;
  return method === "GET" || method === "HEAD" || method === "OPTIONS" ? next() : checkBody(c, next);
};
