import type { MiddlewareHandler } from "hono";

import { AppError } from "../../errors";
import {
  API_VERSION_HEADER,
  changesAfter,
  currentVersions,
  isApiVersion,
  LATEST_API_VERSION,
  requestToLatest,
  toVersion,
} from "../../versions/versions";
import type { AppEnv } from "../context";

/**
 * The request's API version (docs/reference.md section 22): `Onb-Version` when sent (an unknown one
 * is 400 before anything runs), else the caller's account's pinned version, else the latest. Every
 * answer carries it; a JSON answer for an older version is turned back into that version's shapes.
 */
export function apiVersion(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const set = currentVersions();
    const asked = c.req.header(API_VERSION_HEADER)?.trim();
    if (asked !== undefined && !isApiVersion(asked, set)) {
      c.header(API_VERSION_HEADER, c.get("accountApiVersion") ?? LATEST_API_VERSION);
      throw new AppError(
        "api_version_unknown",
        `${API_VERSION_HEADER} '${asked.slice(0, 40)}' is not a version of this API: send one of ${set.versions.join(", ")} (/docs/changelog), or none for your account's`,
        { param: API_VERSION_HEADER },
      );
    }
    const version = asked || c.get("accountApiVersion") || LATEST_API_VERSION;
    c.set("apiVersion", version);
    // An older version's request body, brought to the latest's shape before any route reads it
    // (jsonBody has already refused a body that is not JSON).
    const bringsUp = changesAfter(version, set).some((change) => change.requestToLatest);
    if (bringsUp && (c.req.header("content-type") ?? "").startsWith("application/json")) {
      const text = await c.req.text();
      const parsed: unknown = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        // Hono keeps each body as a promise of it (its type says the value): what every read answers now.
        c.req.bodyCache = {
          text: Promise.resolve(
            JSON.stringify(requestToLatest(parsed as Record<string, unknown>, version, set)),
          ) as unknown as string,
        };
    }
    // Set before the answer exists: a header added to a finished Response makes Hono rebuild it
    // around its body as a stream, which the server then reads back chunk by chunk (a third of a
    // GET's CPU). An answer built by hand (not from the context) may lack it: added then.
    c.header(API_VERSION_HEADER, version);
    try {
      await next();
    } finally {
      if (c.res.headers.get(API_VERSION_HEADER) !== version) c.header(API_VERSION_HEADER, version);
    }
    if (version === set.versions[set.versions.length - 1]) return;
    const type = c.res.headers.get("content-type") ?? "";
    if (!type.startsWith("application/json")) return;
    const body = (await c.res.clone().json()) as unknown;
    const headers = new Headers(c.res.headers);
    headers.delete("content-length");
    c.res = new Response(JSON.stringify(toVersion(body, version, set)), { status: c.res.status, headers });
  };
}
