import { timingSafeEqual } from "node:crypto";
import http from "node:http";

import { sql } from "drizzle-orm";
import client from "prom-client";

import type { DatabaseHandle } from "../db/types";
import { jobTypes } from "../jobs/job-types";

// Metrics (docs/reference.md section 17) in Prometheus's text format, with prom-client: HTTP
// requests by route template and status with their durations, jobs waiting and the oldest one's age
// per type, webhook deliveries by outcome, the database pool, and the process's own. Every label
// value comes from a bounded set (route templates, methods, statuses, job types): never an id, an
// account or a raw path.

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const methods = new Set(["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS"]);

const httpRequests = new client.Counter({
  name: "http_requests_total",
  help: "HTTP requests answered by the API, by method, route template and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const httpDuration = new client.Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer an API request, by method, route template and status class",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** One answered request. `route` is the matched route's template (`/v1/merchants/:merchant_id`). */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
  const m = methods.has(method) ? method : "OTHER";
  const r = route || "unmatched";
  httpRequests.inc({ method: m, route: r, status: String(status) });
  httpDuration.observe({ method: m, route: r, status_class: `${Math.floor(status / 100)}xx` }, seconds);
}

export const deliveryOutcomes = new client.Counter({
  name: "webhook_deliveries_total",
  help: "Webhook delivery attempts by outcome: delivered, retried (a failed try with tries left), failed (the last try), gone (410)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});
for (const outcome of ["delivered", "retried", "failed", "gone"]) deliveryOutcomes.inc({ outcome }, 0);

/** What the last `ledger_check` found broken, by invariant (docs/reference.md section 18): 0 when the ledger holds. */
export const ledgerInvariantViolations = new client.Gauge({
  name: "ledger_invariant_violations",
  help: "Violations of the ledger's invariants found by the last ledger_check run in this process, by invariant",
  labelNames: ["invariant"] as const,
  registers: [registry],
});

const knownJobTypes = Object.keys(jobTypes);

/** The gauges read from the database at each scrape (jobs) and from the pool (PostgreSQL). */
export function registerDatabaseMetrics(handle: DatabaseHandle) {
  for (const name of ["jobs_waiting", "jobs_oldest_age_seconds", "db_pool_connections"])
    registry.removeSingleMetric(name);
  let snapshot: Promise<Map<string, { waiting: number; age: number }>> | null = null;
  // One query per scrape for both job gauges.
  const jobsNow = () => {
    snapshot ??= handle.db
      .execute(
        sql`select type, count(*)::int as waiting, coalesce(extract(epoch from now() - min(run_at)), 0)::float8 as age
          from jobs where status = 'queued' and run_at <= now() group by type`,
      )
      .then((result) => {
        const out = new Map<string, { waiting: number; age: number }>();
        for (const row of result.rows as { type: string; waiting: number; age: number }[])
          if (knownJobTypes.includes(row.type))
            out.set(row.type, { waiting: Number(row.waiting), age: Number(row.age) });
        return out;
      })
      .finally(() => setTimeout(() => (snapshot = null), 0));
    return snapshot;
  };
  new client.Gauge({
    name: "jobs_waiting",
    help: "Jobs due and not yet claimed, by type",
    labelNames: ["type"] as const,
    registers: [registry],
    async collect() {
      const now = await jobsNow();
      for (const type of knownJobTypes) this.set({ type }, now.get(type)?.waiting ?? 0);
    },
  });
  new client.Gauge({
    name: "jobs_oldest_age_seconds",
    help: "How long the oldest due job of each type has waited (0: none waiting)",
    labelNames: ["type"] as const,
    registers: [registry],
    async collect() {
      const now = await jobsNow();
      for (const type of knownJobTypes) this.set({ type }, Math.max(0, now.get(type)?.age ?? 0));
    },
  });
  new client.Gauge({
    name: "db_pool_connections",
    help: "The PostgreSQL pool's connections: total, idle, and requests waiting for one (absent on the embedded database)",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = handle.pool;
      if (!pool) return;
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
}

/** Whether a scrape may read the metrics: the bearer token, compared in constant time. */
export function scrapeAllowed(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(authorization?.replace(/^Bearer /, "") ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * METRICS_PORT: the metrics alone, without a token, on a port of their own (bind it to a private
 * network): the server's, and `npm run worker`'s (its process, its jobs and its webhook deliveries).
 */
export function serveMetrics(port: number, host: string) {
  return http
    .createServer((req, res) => {
      if (req.method !== "GET" || req.url !== "/metrics") return void res.writeHead(404).end();
      void registry.metrics().then(
        (text) => res.writeHead(200, { "Content-Type": registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    })
    .listen(port, host);
}
