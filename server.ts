import http from "node:http";

import { getRequestListener } from "@hono/node-server";
import next from "next";

import { startOperatorSocket } from "./cli/operator-socket";
import { createApi } from "./lib/api/app";
import { CLIENT_ADDRESS_HEADER } from "./lib/auth/sign-in-limiter";
import { isKnownHost } from "./lib/branding/hosts";
import { getDatabase } from "./lib/db/client";
import { seedOnStart } from "./lib/domain/accounts/seed-on-start";
import { env } from "./lib/env";
import { requeueOrphanedJobs } from "./lib/jobs/runner";
import { log } from "./lib/log";
import { clientAddress } from "./lib/net/client-address";
import { sendsHsts, STRICT_TRANSPORT_SECURITY } from "./lib/net/security-headers";
import { serveMetrics } from "./lib/ops/metrics";
import { ACCEPTED_REQUEST_SETTLE_MS, beginShutdown, SHUTDOWN_GRACE_MS } from "./lib/ops/shutdown";
import { frameScript } from "./lib/tokenizer/frame";
import { startBackground } from "./lib/workers/start";

// One process: `/v1/*`, `/docs`, the probes (`/healthz`, `/readyz`), the onboarding links (`/onboard/<token>`), the tokenizer frame (`/tokenizer/*`) and the embedded components' loader and first frame (`/embed/*`) go straight to the Hono app (no Next routing on the API path);
// every other request goes to Next.
const dev = env.NODE_ENV !== "production";

function unknownHost(res: http.ServerResponse) {
  res.writeHead(404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="font-family:system-ui;margin:48px"><h1>Not found</h1><p>This address does not serve any onboarding pages.</p></body></html>',
  );
}

async function main() {
  const handle = await getDatabase();
  await seedOnStart(handle.db);
  const api = getRequestListener(createApi({ handle }).fetch);
  let nextHandler: ReturnType<ReturnType<typeof next>["getRequestHandler"]> = async (_req, res) => {
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(
        '{"error":{"type":"not_found_error","code":"route_not_found","message":"This server runs the API only (SERVE_PAGES=0)"}}',
      );
  };
  if (env.SERVE_PAGES === "1") {
    const nextApp = next({ dev, dir: import.meta.dirname, port: env.PORT });
    await nextApp.prepare();
    nextHandler = nextApp.getRequestHandler();
  }

  let stopping = false;
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    res.once("close", () => inFlight--);
    const url = req.url ?? "/";
    // While stopping, every answer closes its connection: keep-alive clients reconnect elsewhere.
    if (stopping) res.setHeader("Connection", "close");
    if (
      url.startsWith("/v1/") ||
      url === "/v1" ||
      url === "/healthz" ||
      url === "/readyz" ||
      url === "/metrics" ||
      url === "/docs" ||
      url.startsWith("/docs/") ||
      url.startsWith("/docs?") ||
      url.startsWith("/onboard/") ||
      url.startsWith("/l/") ||
      url.startsWith("/tokenizer/") ||
      url.startsWith("/embed/")
    ) {
      void api(req, res);
    } else {
      // Hosted pages answer only on the service's host and, for the merchant- and customer-facing
      // pages, on the ISVs' custom domains (never the dashboard).
      // The pages' server code (dashboard sign-in limits) reads the client's address from here;
      // whatever a client sent under this name is replaced.
      req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req);
      if (sendsHsts()) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
      void isKnownHost(handle.db, req.headers.host, req.url ?? "/").then(
        (known) => (known ? nextHandler(req, res) : unknownHost(res)),
        () => unknownHost(res),
      );
    }
  });
  server.keepAliveTimeout = 65_000;
  const operator = handle.kind === "pglite" ? await startOperatorSocket(handle) : undefined;
  // Background work (webhooks, underwriting...) runs in-process unless RUN_WORKER=0.
  // The embedded database belongs to this process alone: jobs left running by a previous process
  // that died are orphans and go back to the queue now instead of waiting out their lease.
  if (handle.kind === "pglite") await requeueOrphanedJobs(handle.db);
  const worker = await startBackground(handle, { runJobs: env.RUN_WORKER === "1" });

  // METRICS_PORT: the metrics alone, without a token, on their own port.
  const metricsServer = env.METRICS_PORT ? serveMetrics(env.METRICS_PORT, env.METRICS_HOST) : undefined;

  server.listen(env.PORT, env.HOST, () => {
    log.info({ port: env.PORT, database: handle.kind, app_env: env.APP_ENV }, `listening on ${env.PUBLIC_BASE_URL}`);
    // The card frame's script is bundled on first use: now, so that the first customer does not wait.
    void frameScript().catch((error: unknown) => log.warn({ err: error }, "the card frame's script did not bundle"));
    if (!env.TOKENIZER_SEPARATE && env.APP_ENV === "production")
      log.warn(
        { tokenizer_origin: env.TOKENIZER_ORIGIN },
        "the card frame shares the service's origin: set TOKENIZER_ORIGIN (README, production layout) so that no page can read it",
      );
  });

  // SIGTERM/SIGINT (docs/reference.md section 17): stop accepting, let what is in flight finish
  // (SHUTDOWN_GRACE_MS at most), end the status streams with a reconnect hint, let the worker finish
  // its jobs in hand (the rest stay queued for the other instances), then close the database: exit 0.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing the requests and jobs in flight");
    const grace = setTimeout(() => {
      log.warn({ grace_ms: SHUTDOWN_GRACE_MS }, "still busy after the grace period: exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    grace.unref();
    server.close();
    beginShutdown();
    metricsServer?.close();
    operator?.close();
    // A connection accepted just before the listener closed may not have sent its request yet (to
    // Node it is idle): it gets a moment to, and is answered with `Connection: close`. Then idle
    // keep-alive connections are closed, the requests in flight (status streams end at once, told
    // to reconnect) finish, and whatever connection is left (a client that never sent its request)
    // is closed.
    const answered = (async () => {
      await new Promise((resolve) => setTimeout(resolve, ACCEPTED_REQUEST_SETTLE_MS));
      server.closeIdleConnections();
      while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      server.closeAllConnections();
    })();
    await Promise.all([answered, worker?.stop()]);
    await handle.close().catch(() => {});
    clearTimeout(grace);
    log.info({ signal }, "stopped");
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  // A start-up failure (a locked data directory, a bad DATABASE_URL) is one clear line, not a trace.
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
