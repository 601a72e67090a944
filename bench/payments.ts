import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";

import autocannon from "autocannon";

import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { startBenchServer, tsx } from "./harness";
import { scaled, SHORT } from "./short";

// Payments (issue 12): how fast payment requests are created, how long a customer's "Pay" takes to
// reach the ISV as a delivered `charge.paid`, and how much script the pay page loads.

export type PaymentsBench = {
  kind: string;
  createRps: number;
  bareCreateRps: number;
  createP50: number;
  createP99: number;
  payToWebhookP50: number;
  payToWebhookP99: number;
  payments: number;
  payPageJsGzip: number | null;
  tokenizerJsGzip: number | null;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** A merchant through the session API and the server's own underwriting: APPROVED. */
export async function approvedMerchant(server: Awaited<ReturnType<typeof startBenchServer>>) {
  const merchant = await server.call("POST", "/v1/merchants", { phone: "+14155550123", merchant: example });
  const link = await server.call("POST", "/v1/onboarding_links", {
    merchant_id: merchant.id,
    type: "account_onboarding",
  });
  const opened = await fetch(server.base + new URL(link.url).pathname, { redirect: "manual" });
  const token = opened.headers.get("set-cookie")!.match(/onboarding_session=([^;]+)/)![1]!;
  const session = { authorization: `Bearer ${token}` };
  await server.call("PATCH", "/v1/onboarding/session", { device: { catalog_id: "pax-a920" } }, session);
  await server.call(
    "POST",
    "/v1/onboarding/session/agreement",
    { name: `${example.owner_one.first_name} ${example.owner_one.last_name}` },
    session,
  );
  await server.call("POST", "/v1/onboarding/session/submit", undefined, session);
  for (let i = 0; i < 300; i++) {
    const m = await server.call("GET", `/v1/merchants/${merchant.id}`);
    if (m.lead_onboarding_status === "APPROVED")
      return { id: merchant.id as string, publishableKey: m.payment.tokenizer_publishable_key as string };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the bench merchant was not approved");
}

export async function benchPayments(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  options: { pages: boolean },
): Promise<PaymentsBench> {
  const paidAt = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (event.type === "charge.paid" && !paidAt.has(event.data.object.payment_request_id))
        paidAt.set(event.data.object.payment_request_id, Date.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const server = await startBenchServer({ port: 3470, databaseUrl, pages: options.pages });
  try {
    const merchant = await approvedMerchant(server);

    // 1. Creating scan-to-pay requests, 25 at a time (no webhook subscribed yet).
    const body = JSON.stringify({
      merchant_id: merchant.id,
      items: [{ name: "Flat white", quantity: 2, unit_price: 450 }],
      taxPercent: "8.875",
      tip: 100,
    });
    const createAt = async (base: string) => {
      const opts = {
        url: `${base}/v1/scan_to_pay`,
        method: "POST" as const,
        headers: { authorization: server.auth, "content-type": "application/json" },
        body,
        connections: 25,
      };
      if (!SHORT) await autocannon({ ...opts, duration: 2 });
      return autocannon({ ...opts, duration: Number(process.env.BENCH_SECONDS ?? 8) });
    };
    const created = await createAt(server.base);

    // 2. Card submit → charge.paid at the ISV's receiver, 100 payments, 10 at a time.
    const hook = await server.call("POST", "/v1/webhooks", {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
      scopes: ["charge"],
    });
    const payments = scaled(100, 10);
    const submittedAt = new Map<string, number>();
    for (let i = 0; i < payments; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const pr = await server.call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1234 });
          const token = await server.call(
            "POST",
            "/v1/tokens",
            { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
            { authorization: `Bearer ${merchant.publishableKey}` },
          );
          submittedAt.set(pr.id, Date.now());
          const paid = await server.call("POST", `/v1/payment_requests/${pr.id}/pay`, { token: token.id }, {});
          if (paid.outcome !== "paid") throw new Error(`payment failed: ${JSON.stringify(paid)}`);
        }),
      );
    }
    const started = Date.now();
    while (paidAt.size < payments) {
      if (Date.now() - started > 120_000) throw new Error(`only ${paidAt.size} of ${payments} charge.paid delivered`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const latencies = [...submittedAt].map(([id, at]) => paidAt.get(id)! - at).sort((a, b) => a - b);

    // 3. The pay page's script in a real browser (gzip), and the tokenizer frame's own.
    let payPageJsGzip: number | null = null;
    let tokenizerJsGzip: number | null = null;
    if (options.pages) {
      const pr = await server.call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount: 500 });
      const { chromium } = await import("@playwright/test");
      const browser = await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      try {
        const page = await browser.newPage();
        const sizes: Promise<{ url: string; bytes: number }>[] = [];
        page.on("response", (res) => {
          if (res.request().resourceType() === "script")
            sizes.push(
              res.body().then(
                (b) => ({ url: res.url(), bytes: gzipSync(b, { level: 9 }).length }),
                () => ({ url: res.url(), bytes: 0 }),
              ),
            );
        });
        await page.goto(`${server.base}/pay/${pr.id}`, { waitUntil: "networkidle" });
        const all = await Promise.all(sizes);
        payPageJsGzip = all.filter((s) => !s.url.includes("/tokenizer/")).reduce((a, s) => a + s.bytes, 0);
        tokenizerJsGzip = all.filter((s) => s.url.includes("/tokenizer/")).reduce((a, s) => a + s.bytes, 0);
      } finally {
        await browser.close();
      }
    }
    // 4. The same creates on a bare node:http server doing the same SQL (same database, API stopped).
    await server.call("DELETE", `/v1/webhooks/${hook.id}`); // as during the API's creates: no webhook
    await server.stop();
    const bare = fork(path.resolve("bench/bare-payments.ts"), {
      env: {
        ...process.env,
        DATA_DIR: server.dataDir,
        PORT: "3471",
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      execPath: tsx,
      execArgv: [],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    let bareCreated: Awaited<ReturnType<typeof createAt>>;
    try {
      await new Promise((resolve, reject) => {
        bare.once("message", resolve);
        bare.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
      });
      bareCreated = await createAt("http://127.0.0.1:3471");
    } finally {
      const exited = new Promise((r) => bare.once("exit", r));
      bare.kill("SIGTERM");
      await exited;
    }
    return {
      kind,
      createRps: created.requests.average,
      bareCreateRps: bareCreated.requests.average,
      createP50: created.latency.p50,
      createP99: created.latency.p99,
      payToWebhookP50: percentile(latencies, 50),
      payToWebhookP99: percentile(latencies, 99),
      payments,
      payPageJsGzip,
      tokenizerJsGzip,
    };
  } finally {
    await server.stop();
    receiver.close();
  }
}

export function printPayments(results: PaymentsBench[]) {
  console.log(
    `\nPayments: POST /v1/scan_to_pay (25 connections); card submit (POST .../pay) → charge.paid at a loopback receiver, ${scaled(100, 10)} payments 10 at a time`,
  );
  console.log(
    `${"database".padEnd(12)} ${"creates/s".padStart(10)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"bare/s".padStart(8)} ${"API/bare".padStart(9)} ${"pay→webhook p50 ms".padStart(19)} ${"p99 ms".padStart(7)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${r.createRps.toFixed(0).padStart(10)} ${String(r.createP50).padStart(7)} ${String(r.createP99).padStart(7)} ${r.bareCreateRps.toFixed(0).padStart(8)} ${(r.createRps / r.bareCreateRps).toFixed(2).padStart(9)} ${String(r.payToWebhookP50).padStart(19)} ${String(r.payToWebhookP99).padStart(7)}`,
    );
  const page = results.find((r) => r.payPageJsGzip !== null);
  if (page)
    console.log(
      `Pay page script (gzip): ${(page.payPageJsGzip! / 1024).toFixed(1)} KB (goal <= 100 KB); the tokenizer frame's own: ${(page.tokenizerJsGzip! / 1024).toFixed(1)} KB`,
    );
}
