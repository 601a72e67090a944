import { gzipSync } from "node:zlib";

import { startExample } from "../examples/embed/server.mjs";
import { startBenchServer } from "./harness";
import { scaled } from "./short";

// Embedded components (issue 30): the loader's size (gzip -9; goal <= 12 KB), and the time from
// <onb-onboarding> being mounted on the ISV's page to the first step painted and hydrated in its frame
// (the frame's `onb-ready`), over 20 loads, each in a fresh browser context (a cold partition: the
// hello, the secret's exchange, the cookie check and the wizard's first page every time).

export type EmbedBench = { kind: string; loaderGzipBytes: number; loads: number; p50: number; p90: number };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchEmbed(kind: "pglite" | "postgres", databaseUrl: string | undefined, loads = scaled(20, 1)) {
  const server = await startBenchServer({ port: 3490, databaseUrl, pages: true });
  const hostPort = 3491;
  const hostOrigin = `http://localhost:${hostPort}`;
  const [sid, secret] = Buffer.from(server.auth.slice("Basic ".length), "base64").toString().split(":");
  const host = await startExample({ port: hostPort, api: server.base, accountSid: sid, secretKey: secret });
  try {
    await server.call("PATCH", "/v1/account", { settings: { embed_allowed_origins: [hostOrigin] } });
    const merchant = await server.call("POST", "/v1/merchants", { phone: "+14155550123" });
    const loader = Buffer.from(await (await fetch(`${server.base}/embed/v1.js`)).arrayBuffer());
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
    const times: number[] = [];
    try {
      for (let i = 0; i < loads + 2; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        // Mounted: the element is put into the page; painted: the frame's first page says it is ready.
        await page.addInitScript(() => {
          const w = window as unknown as { __mounted?: number; __ready?: number };
          new MutationObserver((_, observer) => {
            if (document.querySelector("onb-onboarding")) {
              w.__mounted = performance.now();
              observer.disconnect();
            }
          }).observe(document, { childList: true, subtree: true });
          document.addEventListener("onb-ready", () => (w.__ready ??= performance.now()));
        });
        await page.goto(`${hostOrigin}/?merchant=${merchant.id}`);
        await page.waitForFunction(() => (window as unknown as { __ready?: number }).__ready !== undefined, null, {
          timeout: 30_000,
        });
        const ms = await page.evaluate(() => {
          const w = window as unknown as { __mounted: number; __ready: number };
          return w.__ready - w.__mounted;
        });
        if (i >= 2) times.push(ms); // the first two warm the pages up
        await context.close();
      }
    } finally {
      await browser.close();
    }
    times.sort((a, b) => a - b);
    return {
      kind,
      loaderGzipBytes: gzipSync(loader, { level: 9 }).length,
      loads,
      p50: Math.round(percentile(times, 50)),
      p90: Math.round(percentile(times, 90)),
    } satisfies EmbedBench;
  } finally {
    await new Promise((resolve) => host.close(resolve));
    await server.stop();
  }
}

export function printEmbed(results: EmbedBench[]) {
  if (!results.length) return;
  console.log(
    `\nEmbedded components: the loader ${(results[0]!.loaderGzipBytes / 1024).toFixed(1)} KB gzip (goal <= 12 KB); <onb-onboarding> mounted to its first step painted (onb-ready), fresh browser contexts`,
  );
  for (const r of results)
    console.log(`${r.kind.padEnd(10)} ${String(r.loads).padStart(3)} loads  p50 ${r.p50} ms  p90 ${r.p90} ms`);
}
