import { gzipSync } from "node:zlib";

import pg from "pg";

import { startBenchServer } from "./harness";
import { approvedMerchant } from "./payments";
import { scaled, SHORT } from "./short";

// The merchant's home (issue 29): the script each of its pages makes a phone load (gzip), and how
// long the server takes to render the payments list and the overview when the merchant has
// 10,000 charges (PostgreSQL: the charges are cloned in SQL from a real paid one; PGlite belongs to
// its server process, so it is measured with the charges the API can make in a few seconds).

export type HomeBench = {
  kind: string;
  charges: number;
  pages: { page: string; jsGzipBytes: number; scripts: number }[];
  list: { p50: number; p99: number };
  filtered: { p50: number; p99: number };
  nextPage: { p50: number; p99: number };
  overview: { p50: number; p99: number };
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** `count` copies of one paid charge (and its request), spread over the last 30 days, in one statement each. */
async function cloneCharges(databaseUrl: string, chargeId: string, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = async (table: string) =>
      (
        await client.query<{ column_name: string }>(
          "select column_name from information_schema.columns where table_name = $1 and column_name <> 'seq' order by ordinal_position",
          [table],
        )
      ).rows.map((r) => r.column_name);
    const override = (cols: string[], values: Record<string, string>) =>
      cols.map((c) => values[c] ?? `src.${c}`).join(", ");
    const spread = "now() - (g * interval '259 seconds')"; // 10,000 over 30 days
    const requestCols = await columns("payment_requests");
    await client.query(
      `insert into payment_requests (${requestCols.join(", ")})
       select ${override(requestCols, { id: "'pr_bench' || lpad(g::text, 17, '0')", created_at: spread, paid_at: spread })}
       from payment_requests src, generate_series(1, $2) g
       where src.id = (select payment_request_id from charges where id = $1)`,
      [chargeId, count],
    );
    const chargeCols = await columns("charges");
    await client.query(
      `insert into charges (${chargeCols.join(", ")})
       select ${override(chargeCols, {
         id: "'ch_bench' || lpad(g::text, 17, '0')",
         payment_request_id: "'pr_bench' || lpad(g::text, 17, '0')",
         created_at: spread,
         captured_at: spread,
         amount_captured: "100 + (g % 9000)",
         requested_amount: "100 + (g % 9000)",
         card_last4: "case when g % 7 = 0 then '0005' else src.card_last4 end",
       })}
       from charges src, generate_series(1, $2) g
       where src.id = $1`,
      [chargeId, count],
    );
    await client.query("analyze charges; analyze payment_requests");
  } finally {
    await client.end();
  }
}

/** Server time of one page: from the request to its whole HTML, `runs` times in a row. */
async function timePage(url: string, cookie: string, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
    if (i >= 5) times.push(performance.now() - started); // the first five warm the page up
  }
  times.sort((a, b) => a - b);
  return { p50: Math.round(percentile(times, 50) * 10) / 10, p99: Math.round(percentile(times, 99) * 10) / 10 };
}

export async function benchHome(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  options: { scripts: boolean },
): Promise<HomeBench> {
  const server = await startBenchServer({ port: 3480, databaseUrl, pages: true });
  try {
    const merchant = await approvedMerchant(server);
    const pay = async (amount: number) => {
      const pr = await server.call("POST", "/v1/scan_to_pay", { merchant_id: merchant.id, amount });
      const token = await server.call(
        "POST",
        "/v1/tokens",
        { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
        { authorization: `Bearer ${merchant.publishableKey}` },
      );
      const paid = await server.call("POST", `/v1/payment_requests/${pr.id}/pay`, { token: token.id }, {});
      if (paid.outcome !== "paid")
        throw new Error(`payment failed: ${JSON.stringify(paid)} (token: ${JSON.stringify(token)})`);
      return paid.charge.id as string;
    };
    const first = await pay(2599);
    let charges = 1;
    if (databaseUrl) {
      await cloneCharges(databaseUrl, first, scaled(10_000, 200));
      charges += scaled(10_000, 200);
    } else {
      // PGlite: its database is the server's own, so the charges come through the API, one address (the bench's server has a load test's card budget).
      for (let i = 0; i < scaled(50, 5); i++) await pay(100 + i);
      charges += scaled(50, 5);
    }
    const settled = await server.call("POST", "/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
    const link = await server.call("POST", `/v1/merchants/${merchant.id}/login_links`, {});
    const opened = await fetch(server.base + new URL(link.url).pathname, { redirect: "manual" });
    const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;

    const runs = scaled(200, 10);
    const list = await timePage(`${server.base}/home/payments`, cookie, runs);
    const filtered = await timePage(`${server.base}/home/payments?last4=0005&status=SETTLED`, cookie, runs);
    const nextPage = await timePage(`${server.base}/home/payments?after=${first}`, cookie, runs);
    const overview = await timePage(`${server.base}/home`, cookie, runs);

    const pages: HomeBench["pages"] = [];
    if (options.scripts) {
      const settlementId = settled.data[0]?.id as string | undefined;
      const every = [
        "/home",
        "/home/payments",
        `/home/payments/${first}`,
        ...(settlementId ? [`/home/settlements/${settlementId}`] : []),
        "/home/take-payment",
        "/home/documents",
        "/home/settings",
      ];
      // The short mode: two pages (the measuring is the same for each; the figures are not compared).
      const paths = SHORT ? every.slice(0, 2) : every;
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
        for (const path of paths) {
          const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
          await context.addCookies([{ name: "merchant_session", value: cookie.split("=")[1]!, url: server.base }]);
          const page = await context.newPage();
          const sizes: Promise<number>[] = [];
          page.on("response", (res) => {
            if (res.request().resourceType() === "script")
              sizes.push(
                res.body().then(
                  (b) => gzipSync(b, { level: 9 }).length,
                  () => 0,
                ),
              );
          });
          await page.goto(`${server.base}${path}`, { waitUntil: "networkidle" });
          const all = await Promise.all(sizes);
          pages.push({
            page: path.replace(first, "{charge}").replace(settlementId ?? "-", "{settlement}"),
            jsGzipBytes: all.reduce((a, b) => a + b, 0),
            scripts: all.length,
          });
          await context.close();
        }
      } finally {
        await browser.close();
      }
    }
    return { kind, charges, pages, list, filtered, nextPage, overview };
  } finally {
    await server.stop();
  }
}

export function printHome(results: HomeBench[]) {
  console.log(
    `\nMerchant home: server time of a whole page (HTML rendered), ${scaled(200, 10)} requests in a row after 5 to warm up`,
  );
  console.log(
    `${"database".padEnd(10)} ${"charges".padStart(8)} ${"list p50/p99 ms".padStart(17)} ${"filtered".padStart(13)} ${"next page".padStart(13)} ${"overview".padStart(13)}`,
  );
  const pair = (f: { p50: number; p99: number }) => `${f.p50}/${f.p99}`;
  for (const r of results)
    console.log(
      `${r.kind.padEnd(10)} ${String(r.charges).padStart(8)} ${pair(r.list).padStart(17)} ${pair(r.filtered).padStart(13)} ${pair(r.nextPage).padStart(13)} ${pair(r.overview).padStart(13)}`,
    );
  const scripts = results.find((r) => r.pages.length)?.pages ?? [];
  if (scripts.length) {
    console.log("Script each page loads at 375 px (every script response, gzip -9; goal under 180 KB):");
    for (const p of scripts)
      console.log(`  ${p.page.padEnd(28)} ${(p.jsGzipBytes / 1024).toFixed(1).padStart(7)} KB in ${p.scripts} scripts`);
  }
}
