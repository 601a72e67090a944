import { gzipSync } from "node:zlib";

import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { startBenchServer } from "./harness";
import { SHORT } from "./short";
export const wizardSteps = ["business", "owners", "bank", "product", "sales", "device", "review", "agreement"] as const;

export type StepFigure = {
  step: string;
  jsGzipBytes: number;
  scripts: number;
  performance: number | null;
  accessibility: number | null;
};

/**
 * For each wizard step: the JavaScript the page makes the browser load (every script in its HTML,
 * gzip bytes), and Lighthouse's mobile performance and accessibility scores in Debian's Chromium.
 */
export async function benchWizard(options: { lighthouse: boolean }): Promise<StepFigure[]> {
  const server = await startBenchServer({ port: 3460, pages: true });
  const base = server.base;
  try {
    const post = (p: string, body: unknown, headers?: Record<string, string>) => server.call("POST", p, body, headers);
    // A complete application (device chosen, agreement signed) so that every step can be opened.
    const merchant = await post("/v1/merchants", { phone: "+14155550123", merchant: example });
    const link = await post("/v1/onboarding_links", { merchant_id: merchant.id, type: "account_onboarding" });
    const opened = await fetch(base + new URL(link.url).pathname, { redirect: "manual" });
    const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
    const session = { cookie, origin: base };
    await fetch(`${base}/v1/onboarding/session`, {
      method: "PATCH",
      headers: { ...session, "content-type": "application/json" },
      body: JSON.stringify({ device: { catalog_id: "pax-a920" } }),
    });
    await post("/v1/onboarding/session/agreement", { name: "Mei Chen" }, session);

    // Measured in a real browser: every script response while the step loads, gzip-compressed.
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
    const figures: StepFigure[] = [];
    try {
      // The short mode: the first step and the last (one page with the steps' shared form, one without).
      for (const step of SHORT ? (["business", "agreement"] as const) : wizardSteps) {
        const context = await browser.newContext();
        await context.addCookies([{ name: "onboarding_session", value: cookie.split("=")[1]!, url: base }]);
        const page = await context.newPage();
        const scripts: Promise<number>[] = [];
        page.on("response", (res) => {
          if (res.request().resourceType() === "script")
            scripts.push(
              res.body().then(
                (b) => {
                  const size = gzipSync(b, { level: 9 }).length;
                  // BENCH_SCRIPTS=1: every script of the step with its size, to see what weighs.
                  if (process.env.BENCH_SCRIPTS === "1")
                    console.log(`  ${step} ${(size / 1024).toFixed(1).padStart(6)} KB ${new URL(res.url()).pathname}`);
                  return size;
                },
                () => 0,
              ),
            );
        });
        await page.goto(`${base}/onboarding/${step}`, { waitUntil: "networkidle" });
        const sizes = await Promise.all(scripts);
        figures.push({
          step,
          jsGzipBytes: sizes.reduce((a, b) => a + b, 0),
          scripts: sizes.length,
          performance: null,
          accessibility: null,
        });
        await context.close();
      }
    } finally {
      await browser.close();
    }
    if (options.lighthouse) await lighthouseScores(base, cookie, figures);
    return figures;
  } finally {
    await server.stop();
  }
}

async function lighthouseScores(base: string, cookie: string, figures: StepFigure[]) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    for (const figure of figures) {
      const result = await lighthouse(`${base}/onboarding/${figure.step}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
        extraHeaders: { Cookie: cookie },
      });
      const categories = result?.lhr.categories;
      figure.performance =
        categories?.performance?.score != null ? Math.round(categories.performance.score * 100) : null;
      figure.accessibility =
        categories?.accessibility?.score != null ? Math.round(categories.accessibility.score * 100) : null;
    }
  } finally {
    await chrome.kill();
  }
}
