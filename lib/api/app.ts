import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";

import { type DatabaseHandle } from "../db/types";
import { env } from "../env";
import { AppError, invalidFields, issuesToFieldErrors } from "../errors";
import { httpStatusOf } from "../errors";
import { type LimitStore, limitStore } from "../limits";
import { log } from "../log";
import { compileTrustProxy } from "../net/client-address";
import { readiness } from "../ops/health";
import { registerDatabaseMetrics, registry, scrapeAllowed } from "../ops/metrics";
import type { AppEnv } from "./context";
import { errorBody, httpHeaders } from "./errors";
import { apiVersion } from "./middleware/api-version";
import { authenticate } from "./middleware/auth";
import { authorize } from "./middleware/authorize";
import { jsonBody } from "./middleware/body";
import { idempotency } from "./middleware/idempotency";
import { rateLimit, tokenizerBudget } from "./middleware/rate-limit";
import { requestContext } from "./middleware/request-context";
import { accountRoutes } from "./routes/account";
import { accountSessionRoutes } from "./routes/account-sessions";
import { auditLogRoutes } from "./routes/audit-logs";
import { authRoutes } from "./routes/auth";
import { balanceRoutes } from "./routes/balance";
import { chargeRoutes } from "./routes/charges";
import { customerRoutes } from "./routes/customers";
import { disputeRoutes } from "./routes/disputes";
import { docsRoutes } from "./routes/docs";
import { docsPagesRoutes } from "./routes/docs-pages";
import { embedRoutes } from "./routes/embed";
import { eventRoutes } from "./routes/events";
import { feeRoutes } from "./routes/fees";
import { fileRoutes } from "./routes/files";
import { homeRoutes } from "./routes/home";
import { linkOpenRoutes } from "./routes/link-open";
import { merchantRoutes } from "./routes/merchants";
import { onboardingLinkRoutes } from "./routes/onboarding-links";
import { onboardingSessionRoutes } from "./routes/onboarding-session";
import { paymentLinkRoutes } from "./routes/payment-links";
import { paymentMethodRoutes } from "./routes/payment-methods";
import { paymentRoutes } from "./routes/payments";
import { payoutCardRoutes } from "./routes/payout-cards";
import { payoutRoutes } from "./routes/payouts";
import { refundRoutes } from "./routes/refunds";
import { reportRoutes } from "./routes/reports";
import { reserveRoutes } from "./routes/reserves";
import { residualRoutes } from "./routes/residuals";
import { riskAlertRoutes } from "./routes/risk-alerts";
import { routingNumberRoutes } from "./routes/routing-numbers";
import { settlementRoutes } from "./routes/settlements";
import { statementRoutes } from "./routes/statements";
import { subscriptionRoutes } from "./routes/subscriptions";
import { testClockRoutes } from "./routes/test-clocks";
import { testHelperRoutes } from "./routes/test-helpers";
import { tokenizerRoutes } from "./routes/tokenizer";
import { tokenRoutes } from "./routes/tokens";
import { webhookRoutes } from "./routes/webhooks";
import { defaultStreamCaps, type StreamCapLimits, streamCaps } from "./stream-caps";

export type ApiOptions = {
  handle: DatabaseHandle;
  rateLimitPerSecond?: number;
  /** Status streams this app holds (default: defaultStreamCaps). */
  streamCaps?: StreamCapLimits;
  /** Tokens one client address may make a minute (default: TOKENS_PER_ADDRESS_PER_MINUTE). */
  tokensPerAddressPerMinute?: number;
  /** Where request counts are kept (default: the process's store, lib/limits.ts). */
  limits?: LimitStore;
  /** Which proxies' X-Forwarded-For to believe (default: TRUST_PROXY). */
  trustProxy?: string;
  /** The token a metrics scrape must bear (default: METRICS_TOKEN; none: /metrics is 404). */
  metricsToken?: string;
};

/** The HTTP API: every `/v1/*` request, and `/docs`. Conventions live here once (docs/reference.md section 3). */
export function createApi(options: ApiOptions) {
  const app = new OpenAPIHono<AppEnv>({
    // Validation failures become the contract's 400 with every problem listed.
    defaultHook: (result) => {
      if (!result.success)
        throw invalidFields(issuesToFieldErrors(result.error.issues, [], (result as { data?: unknown }).data ?? {}));
    },
  });

  // Probes (docs/reference.md section 17), before the access log: one a second per instance would
  // drown it. Not cached by anything in between.
  const limits = options.limits ?? limitStore();
  app.get("/healthz", (c) => c.json({ status: "ok" }, 200, { "Cache-Control": "no-store" }));
  app.get("/readyz", async (c) => {
    const { ready, checks } = await readiness(options.handle, limits);
    return c.json({ status: ready ? "ready" : "unavailable", checks }, ready ? 200 : 503, {
      "Cache-Control": "no-store",
    });
  });

  // Metrics (section 17): with the scrape's token only; not in the access log, not counted.
  registerDatabaseMetrics(options.handle);
  const metricsToken = options.metricsToken ?? env.METRICS_TOKEN;
  app.get("/metrics", async (c) => {
    if (!metricsToken) throw new AppError("route_not_found", "No route GET /metrics (set METRICS_TOKEN to enable it)");
    if (!scrapeAllowed(c.req.header("authorization"), metricsToken))
      throw new AppError("unauthenticated", "A metrics scrape bears the METRICS_TOKEN as a Bearer token");
    return c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  });

  app.use(
    "*",
    requestContext(
      options.handle,
      options.trustProxy === undefined ? undefined : compileTrustProxy(options.trustProxy),
    ),
  );
  app.use(
    "/v1/*",
    authenticate,
    // Who may is decided before the body is read: a refused caller's body is never parsed.
    authorize,
    jsonBody,
    apiVersion(),
    rateLimit(options.rateLimitPerSecond ?? env.RATE_LIMIT_PER_SECOND, options.limits),
    idempotency,
  );
  app.post(
    "/v1/tokens",
    tokenizerBudget(options.tokensPerAddressPerMinute ?? env.TOKENS_PER_ADDRESS_PER_MINUTE, options.limits),
  );

  authRoutes(app);
  accountRoutes(app);
  merchantRoutes(app);
  onboardingLinkRoutes(app);
  onboardingSessionRoutes(app);
  linkOpenRoutes(app);
  webhookRoutes(app);
  eventRoutes(app);
  auditLogRoutes(app);
  paymentRoutes(app, streamCaps(options.streamCaps ?? defaultStreamCaps));
  tokenRoutes(app);
  routingNumberRoutes(app);
  chargeRoutes(app);
  customerRoutes(app);
  paymentMethodRoutes(app);
  subscriptionRoutes(app);
  paymentLinkRoutes(app);
  fileRoutes(app);
  homeRoutes(app);
  refundRoutes(app);
  feeRoutes(app);
  settlementRoutes(app);
  payoutRoutes(app, { sandbox: env.APP_ENV === "sandbox" });
  reserveRoutes(app);
  payoutCardRoutes(app);
  riskAlertRoutes(app, { sandbox: env.APP_ENV === "sandbox" });
  balanceRoutes(app);
  reportRoutes(app);
  residualRoutes(app);
  disputeRoutes(app);
  accountSessionRoutes(app);
  statementRoutes(app);
  // Sandbox only: in production every /v1/test_helpers path is an unknown route (404).
  if (env.APP_ENV === "sandbox") {
    testHelperRoutes(app);
    testClockRoutes(app);
  }
  docsRoutes(app);
  docsPagesRoutes(app);
  tokenizerRoutes(app);
  embedRoutes(app);

  app.notFound((c) => {
    const allowed = methodsFor(app, c.req.path);
    if (allowed.length) {
      c.header("Allow", allowed.join(", "));
      return errorResponse(
        c,
        new AppError(
          "method_not_allowed",
          `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(" or ")}`,
        ),
      );
    }
    return errorResponse(
      c,
      new AppError("route_not_found", `Unrecognized request URL (${c.req.method} ${c.req.path})`),
    );
  });
  app.onError((error, c) => errorResponse(c, toAppError(error, c)));
  return app;
}

function toAppError(error: unknown, c: Context<AppEnv>): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof HTTPException && error.status < 500) {
    const code =
      error.status === 413 ? "body_too_large" : error.status === 415 ? "unsupported_media_type" : "invalid_request";
    return new AppError(code, error.message || "Invalid request");
  }
  if (error && typeof error === "object" && "issues" in error && Array.isArray((error as { issues: unknown }).issues)) {
    return invalidFields(issuesToFieldErrors((error as { issues: never[] }).issues));
  }
  // Unknown: the details go to the log with the request id, never to the client.
  log.error({ request_id: c.get("requestId"), err: error }, "unhandled error");
  return new AppError(
    "internal_error",
    "Something went wrong on our side. Quote the request_id if you contact support.",
  );
}

function errorResponse(c: Context<AppEnv>, error: AppError) {
  const api = c.req.path.startsWith("/v1/");
  for (const [name, value] of Object.entries(httpHeaders(error, { api }))) c.header(name, value);
  return c.json(errorBody(error, c.get("requestId") ?? "req_unknown"), httpStatusOf(error) as 400);
}

// Paths registered for each method, compiled once, to tell 405 from 404.
const routeTables = new WeakMap<object, { method: string; pattern: RegExp }[]>();
function methodsFor(app: OpenAPIHono<AppEnv>, path: string): string[] {
  let table = routeTables.get(app);
  if (!table) {
    table = app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(
          `^${r.path
            .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
            .replace(/:[A-Za-z_]+/g, "[^/]+")
            .replace(/\*/g, ".*")}/?$`,
        ),
      }));
    routeTables.set(app, table);
  }
  return [...new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method))];
}
