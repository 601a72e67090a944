import type { AddressInfo } from "node:net";

import { serve } from "@hono/node-server";

import { createApi } from "@/lib/api/app";
import { openDatabase } from "@/lib/db/client";
import { type DatabaseHandle } from "@/lib/db/types";
import { createIsv } from "@/lib/domain/accounts/create-isv";
import { seedOnStart } from "@/lib/domain/accounts/seed-on-start";
import { env } from "@/lib/env";
import { randomBase62 } from "@/lib/ids";
import type { LimitStore } from "@/lib/limits";
import { LATEST_API_VERSION } from "@/lib/versions/versions";
import { startJobPools } from "@/lib/workers/pools";

import { responseChecker } from "./openapi-check";

export type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/**
 * The real HTTP app on a real database, listening on a loopback port: PGlite in this file's own
 * data directory, or the PostgreSQL server of DATABASE_URL (shared; each test seeds its own ISV).
 */
export async function startTestApi(
  options: {
    rateLimitPerSecond?: number;
    /** The tokenizer's per-address budget (default: unlimited, as the request rate; the card-testing test sets 60). */
    tokensPerAddressPerMinute?: number;
    /** The status streams' caps (default: the product's). */
    streamCaps?: { perRequest: number; perAddress: number; perProcess: number };
    configure?: (app: ReturnType<typeof createApi>) => void;
    worker?: boolean;
    /** TRUST_PROXY for this app (the test client on loopback plays the proxy). */
    trustProxy?: string;
    /** Where request counts are kept (default: the process's store). */
    limits?: LimitStore;
    /** GET /metrics's token (default: none, 404). */
    metricsToken?: string;
  } = {},
) {
  const handle: DatabaseHandle = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: 5,
  });
  await seedOnStart(handle.db);
  const app = createApi({
    handle,
    rateLimitPerSecond: options.rateLimitPerSecond ?? 100_000,
    tokensPerAddressPerMinute: options.tokensPerAddressPerMinute ?? 100_000,
    streamCaps: options.streamCaps,
    trustProxy: options.trustProxy,
    limits: options.limits,
    metricsToken: options.metricsToken,
  });
  options.configure?.(app);
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  // The test client (undici) keeps idle connections 4 s; the server would close them at 5 s. With
  // PGlite in this same thread, a long query can hold both timers back, and the client then writes
  // on a connection the server is closing (ECONNRESET, seen in the seeded month's test): the server
  // keeps idle connections longer than the client ever does.
  (server as unknown as { keepAliveTimeout: number; headersTimeout: number }).keepAliveTimeout = 65_000;
  (server as unknown as { keepAliveTimeout: number; headersTimeout: number }).headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const checkResponse = await responseChecker(baseUrl);

  const worker = options.worker ? startJobPools(handle, { pollMs: 50 }) : undefined;

  /** Every response body the suite sees, for the "no secret in any answer" checks. */
  const seenBodies: string[] = [];

  async function call(
    method: string,
    path: string,
    init: { auth?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ) {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.auth) headers.authorization = init.auth;
    let body: string | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(baseUrl + path, { method, headers, body, redirect: "manual" });
    const text = await res.text();
    seenBodies.push(text);
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    // Every answer is held to the published OpenAPI document (throws on a mismatch).
    // The document describes the latest version: an answer written in an older one is that version's.
    if ((res.headers.get("onb-version") ?? LATEST_API_VERSION) === LATEST_API_VERSION)
      checkResponse(method, path, res.status, res.headers.get("content-type"), json);
    return { status: res.status, headers: res.headers, json, text };
  }

  async function newIsv(name = "Test ISV") {
    const email = `isv-${randomBase62(10).toLowerCase()}@example.test`;
    const password = `pw-${randomBase62(16)}`;
    // Like the CLI: live keys on a production deployment.
    const created = await createIsv(handle.db, { name, email, password, live: env.APP_ENV === "production" });
    const auth = `Basic ${Buffer.from(`${created.account_sid}:${created.secret_key}`).toString("base64")}`;
    return { ...created, password, auth };
  }

  return {
    baseUrl,
    handle,
    db: handle.db,
    app,
    call,
    newIsv,
    seenBodies,
    close: async () => {
      await worker?.stop();
      await new Promise((resolve) => server.close(resolve));
      await handle.close();
    },
  };
}
