import { spawn, execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { promisify } from "node:util";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };

const exec = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
export const wizardSteps = ["business", "owners", "bank", "product", "sales", "device", "review", "agreement"] as const;

export type StepFigure = { step: string; jsGzipBytes: number; scripts: number; performance: number | null; accessibility: number | null };

/**
 * For each wizard step: the JavaScript the page makes the browser load (every script in its HTML,
 * gzip bytes), and Lighthouse's mobile performance and accessibility scores in Debian's Chromium.
 */
export async function benchWizard(options: { lighthouse: boolean }): Promise<StepFigure[]> {
  const port = 3460;
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "onb-bench-wiz-")), PORT: String(port), HOST: "127.0.0.1", PUBLIC_BASE_URL: base,
    LOG_LEVEL: "warn", SEED_DEMO: "0", NODE_ENV: "production",
  } as NodeJS.ProcessEnv;
  delete env.DATABASE_URL;
  const server: ChildProcess = spawn(tsx, ["server.ts"], { env, stdio: ["ignore", "ignore", "inherit"] });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/v1/openapi.json`)).ok) break;
      } catch {
        /* starting */
      }
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const { stdout } = await exec(tsx, ["cli/index.ts", "isv", "create", "--name", "Bench POS", "--email", `wiz-${Date.now()}@example.test`, "--password", "bench-password-1", "--json"], { env });
    const isv = JSON.parse(stdout);
    const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
    const post = async (p: string, body: unknown, headers: Record<string, string> = { authorization: auth }) =>
      (await fetch(base + p, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) })).json();
    // A complete application (device chosen, agreement signed) so that every step can be opened.
    const merchant = await post("/v1/merchants", { phone: "+14155550123", merchant: example });
    const link = await post("/v1/onboarding_links", { merchant_id: merchant.id, type: "account_onboarding" });
    const opened = await fetch(base + new URL(link.url).pathname, { redirect: "manual" });
    const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
    const session = { cookie, origin: base };
    await fetch(`${base}/v1/onboarding/session`, { method: "PATCH", headers: { ...session, "content-type": "application/json" }, body: JSON.stringify({ device: { catalog_id: "pax-a920" } }) });
    await post("/v1/onboarding/session/agreement", { name: "Mei Chen" }, session);

    // Measured in a real browser: every script response while the step loads, gzip-compressed.
    const { chromium } = await import("@playwright/test");
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
    const figures: StepFigure[] = [];
    try {
      for (const step of wizardSteps) {
        const context = await browser.newContext();
        await context.addCookies([{ name: "onboarding_session", value: cookie.split("=")[1]!, url: base }]);
        const page = await context.newPage();
        const scripts: Promise<number>[] = [];
        page.on("response", (res) => {
          if (res.request().resourceType() === "script") scripts.push(res.body().then((b) => gzipSync(b, { level: 9 }).length, () => 0));
        });
        await page.goto(`${base}/onboarding/${step}`, { waitUntil: "networkidle" });
        const sizes = await Promise.all(scripts);
        figures.push({ step, jsGzipBytes: sizes.reduce((a, b) => a + b, 0), scripts: sizes.length, performance: null, accessibility: null });
        await context.close();
      }
    } finally {
      await browser.close();
    }
    if (options.lighthouse) await lighthouseScores(base, cookie, figures);
    return figures;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
}

async function lighthouseScores(base: string, cookie: string, figures: StepFigure[]) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    for (const figure of figures) {
      const result = await lighthouse(`${base}/onboarding/${figure.step}`, {
        port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"], extraHeaders: { Cookie: cookie },
      });
      const categories = result?.lhr.categories;
      figure.performance = categories?.performance?.score != null ? Math.round(categories.performance.score * 100) : null;
      figure.accessibility = categories?.accessibility?.score != null ? Math.round(categories.accessibility.score * 100) : null;
    }
  } finally {
    await chrome.kill();
  }
}
