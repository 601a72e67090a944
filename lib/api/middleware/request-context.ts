import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";

import { type DatabaseHandle } from "../../db/types";
import { env } from "../../env";
import { createId } from "../../ids";
import { accessLog } from "../../log";
import { type TrustProxy } from "../../net/client-address";
import { sendsHsts, STRICT_TRANSPORT_SECURITY } from "../../net/security-headers";
import { observeRequest } from "../../ops/metrics";
import type { AppEnv } from "../context";
import { addressOf } from "./conn-info";

/** An onboarding link's path carries its token, which opens a session: logs keep only the route. */
export const loggablePath = (path: string) => (path.startsWith("/onboard/") ? "/onboard/[redacted]" : path);

const instrumented = env.INSTRUMENTATION === "on";

/** Request-Id on every answer (and in every log line and error body); one access log line each. */
export function requestContext(handle: DatabaseHandle, trust?: TrustProxy): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = createId("req");
    c.set("requestId", requestId);
    c.set("db", handle.db);
    c.set("handle", handle);
    c.set("principal", undefined);
    c.set("clientAddress", addressOf(c, trust));
    // Set before the answer exists: a header added to a finished Response makes Hono rebuild it.
    c.header("Request-Id", requestId);
    if (sendsHsts()) c.header("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    await next();
    if (instrumented)
      observeRequest(c.req.method, routePath(c, -1), c.res.status, (performance.now() - started) / 1000);
    if (accessLog.isLevelEnabled("info")) {
      accessLog.info(
        {
          request_id: requestId,
          method: c.req.method,
          path: loggablePath(c.req.path),
          status: c.res.status,
          duration_ms: Math.round((performance.now() - started) * 10) / 10,
          account_id: c.get("principal")?.accountId,
          client_address: c.get("clientAddress"),
        },
        "request",
      );
    }
  };
}
