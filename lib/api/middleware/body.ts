import type { MiddlewareHandler } from "hono";
import { AppError } from "../../errors";
import type { AppEnv } from "../context";

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new AppError("body_too_large", "The request body is larger than 1 MB");

/**
 * Every body is JSON, at most 1 MB. Read once here, so that 413, 415 and malformed JSON answer the
 * same way on every route; the parsed value is handed to the route's validator through Hono's cache.
 */
export const jsonBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const declared = c.req.header("content-length");
  if (declared && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const raw = c.req.raw.body ? await readLimited(c.req.raw.body) : "";
  const bodyCache = (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache;
  if (raw.trim() === "") {
    bodyCache.json = Promise.resolve({});
    bodyCache.text = Promise.resolve("");
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
  bodyCache.json = Promise.resolve(parsed);
  bodyCache.text = Promise.resolve(raw);
  return next();
};

async function readLimited(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
