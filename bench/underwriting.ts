import http from "node:http";
import type { AddressInfo } from "node:net";

import { z } from "zod";

import { insertJob } from "@/lib/jobs/queue";

import { openDatabase } from "../lib/db/client";
import { startWorker } from "../lib/jobs/runner";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { benchDataDir, startBenchServer } from "./harness";
import { scaled } from "./short";

const anyPayload = z.record(z.string(), z.unknown());

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export type UnderwritingBench = { kind: string; applications: number; p50: number; p99: number; max: number };

/**
 * Applications submitted through the session API (10 at a time); the decision time is the
 * merchant.approved event's time minus the submit answer's time.
 */
export async function benchUnderwriting(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  applications = scaled(200, 20),
): Promise<UnderwritingBench> {
  const decided = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const event = JSON.parse(body);
      if (event.type === "merchant.approved") decided.set(event.data.object.id, Date.parse(event.created_at));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const server = await startBenchServer({ port: 3470, databaseUrl });
  try {
    const { call, auth: basic } = server;
    const auth = { authorization: basic };
    await call(
      "POST",
      "/v1/webhooks",
      { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, scopes: ["merchant"] },
      auth,
    );
    const submitted = new Map<string, number>();
    const one = async () => {
      const merchant = await call("POST", "/v1/merchants", { phone: "+14155550123", merchant: example }, auth);
      const link = await call(
        "POST",
        "/v1/onboarding_links",
        { merchant_id: merchant.id, type: "account_onboarding" },
        auth,
      );
      const opened = await fetch(server.base + new URL(link.url).pathname, { redirect: "manual" });
      const session = {
        authorization: `Bearer ${opened.headers.get("set-cookie")!.match(/onboarding_session=([^;]+)/)![1]}`,
      };
      await call("PATCH", "/v1/onboarding/session", { device: { catalog_id: "pax-a920" } }, session);
      await call("POST", "/v1/onboarding/session/agreement", { name: "Mei Chen" }, session);
      await call("POST", "/v1/onboarding/session/submit", undefined, session);
      submitted.set(merchant.id, Date.now());
    };
    for (let i = 0; i < applications; i += 10)
      await Promise.all(Array.from({ length: Math.min(10, applications - i) }, one));
    const start = Date.now();
    while (decided.size < applications) {
      if (Date.now() - start > 120_000) throw new Error(`only ${decided.size} of ${applications} decided`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const times = [...submitted].map(([id, at]) => Math.max(0, decided.get(id)! - at)).sort((a, b) => a - b);
    return { kind, applications, p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1)! };
  } finally {
    await server.stop();
    receiver.close();
  }
}

/** The job runner alone: 2,000 no-op jobs drained by one worker (concurrency 8). */
export async function benchJobs(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  count = scaled(2000, 200),
) {
  const handle = await openDatabase({
    databaseUrl,
    dataDir: await benchDataDir("onb-bench-jobs-", databaseUrl),
  });
  try {
    const type = `bench_${Date.now()}`;
    for (let i = 0; i < count; i += 500) {
      await handle.db.transaction(async (tx) => {
        for (let j = i; j < Math.min(count, i + 500); j++) await insertJob(tx, type, { j });
      });
    }
    let done = 0;
    const started = performance.now();
    const worker = startWorker(handle, {
      types: { [type]: { payload: anyPayload, maxAttempts: 1, backoffMs: () => 0, handler: async () => void done++ } },
      concurrency: 8,
      pollMs: 5,
    });
    while (done < count) await new Promise((r) => setTimeout(r, 5));
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    return { kind, jobs: count, perSecond: count / seconds };
  } finally {
    await handle.close();
  }
}
