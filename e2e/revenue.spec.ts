import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { shareOf } from "../lib/domain/residuals/figures";
import { approvedMerchant, createIsvWithCli, expectAxeClean, signIn } from "./helpers";
import { type APIRequestContext, expect, test } from "./test";

// The dashboard's Revenue page (docs/reference.md section 19): a month of payments with platform
// fees, the month so far, its charts, the merchants by margin, the residual's PDF, and the platform
// fee rules edited with a preview; English and Spanish, at 375 and 1280 px.

async function pay(
  request: APIRequestContext,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
  platformFee?: number,
) {
  const headers = { authorization: isv.auth };
  const pr = await (
    await request.post("/v1/scan_to_pay", {
      headers,
      data: { merchant_id: merchant.id, amount, ...(platformFee ? { platform_fee: { amount: platformFee } } : {}) },
    })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  const paid = await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } });
  expect(paid.status()).toBe(200);
}

test("revenue: the month so far, its charts, the top merchants, the residual's PDF and the fee rules with a preview", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Revenue ISV");
  const headers = { authorization: isv.auth };
  const first = await approvedMerchant(request, isv);
  const second = await approvedMerchant(request, isv);
  await pay(request, isv, first, 12_500, 300);
  await pay(request, isv, first, 4_200);
  await pay(request, isv, second, 9_900, 150);
  // The month so far, as a residual made now would have it: each merchant's share of its margin, and
  // the platform fees.
  const isvAccount = await (await request.get("/v1/account", { headers })).json();
  let soFar = 450;
  for (const merchant of [first, second]) {
    const charges = (await (await request.get(`/v1/charges?merchant_id=${merchant.id}&limit=100`, { headers })).json())
      .data as { margin: number }[];
    expect(charges).toHaveLength(merchant === first ? 2 : 1);
    soFar += shareOf(
      charges.reduce((sum, c) => sum + c.margin, 0),
      isvAccount.cost_profile.revenue_share_percent,
    );
  }
  // A residual is made once its month is over: this month's is refused; last month's (nothing for a
  // new ISV: 0, paid) is listed with its PDF and CSV.
  const now = new Date();
  const thisPeriod = now.toISOString().slice(0, 7);
  const refused = await request.post("/v1/test_helpers/residuals/generate", { headers, data: { period: thisPeriod } });
  expect(refused.status()).toBe(400);
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10)).toISOString().slice(0, 7);
  const residual = await (
    await request.post("/v1/test_helpers/residuals/generate", { headers, data: { period } })
  ).json();
  expect(residual).toMatchObject({ period, amount: 0, line_count: 0, status: "paid" });

  await signIn(page, isv);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Revenue" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Revenue");
  const money = (cents: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
  await expect(page.getByTestId("so-far-amount")).toHaveText(money(soFar));
  await expect(page.getByTestId("so-far-platform-fees")).toHaveText(money(450));
  await expect(page.getByTestId("so-far-volume")).toContainText(`${money(26_600)} · 3 payments`);
  // The charts: images named by what they show, and their figures as a table.
  const earnings = page.getByTestId("chart-earnings");
  await expect(earnings.getByRole("img")).toHaveAttribute("aria-label", new RegExp(money(soFar).replace("$", "\\$")));
  await earnings.getByText("Show the figures as a table").click();
  await expect(earnings.getByRole("table")).toContainText(money(soFar));
  await expect(page.getByTestId("top-merchants").getByRole("row")).toHaveCount(3);
  // The residual's PDF, addressed to the ISV.
  const row = page.getByTestId(`residual-${period}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: /^PDF of/ }).click(),
  ]);
  const bytes = fs.readFileSync((await download.path())!);
  expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
  const dir = path.resolve("test-results/screens");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "residual.pdf"), bytes);
  execFileSync("pdftoppm", ["-png", "-r", "60", path.join(dir, "residual.pdf"), path.join(dir, "residual-pdf")]);
  const [csvDownload] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: /^CSV of/ }).click(),
  ]);
  const csv = fs.readFileSync((await csvDownload.path())!, "utf8");
  expect(csv.split("\n")[0]).toBe(
    "type,residual_id,period,merchant_id,business_name,volume,count,merchant_fees,costs,margin,share,platform_fees,amount",
  );

  // A fee rule, previewed before it is saved, then saved and read back through the API.
  const rules = page.getByTestId("fee-rules");
  await rules.getByRole("button", { name: "Add a rule" }).click();
  const rule = rules.getByTestId("rule-1");
  await rule.getByLabel("Percent of the total").fill("2.5");
  await rule.getByLabel("At least ($)").fill("0.50");
  const preview = rules.getByTestId("fee-preview");
  await preview.getByLabel("Payment total ($)").fill("10.00");
  await expect(preview.getByTestId("fee-preview-result")).toHaveText("Platform fee: $0.50 (rule 1).");
  await preview.getByLabel("Payment total ($)").fill("100");
  await expect(preview.getByTestId("fee-preview-result")).toHaveText("Platform fee: $2.50 (rule 1).");
  await rule.getByLabel("Percent of the total").fill("2.555");
  await expect(rule.getByRole("alert")).toContainText("the percent");
  await expect(rules.getByRole("button", { name: "Save the rules" })).toBeDisabled();
  await rule.getByLabel("Percent of the total").fill("2.5");
  await rule.getByLabel("Payment type").selectOption("SCAN_TO_PAY");
  await rules.getByRole("button", { name: "Save the rules" }).click();
  await expect(rules.getByTestId("fee-rules-message")).toHaveText("Rules saved: new payments follow them.");
  const account = await (await request.get("/v1/account", { headers })).json();
  expect(account.settings.platform_fee_rules).toEqual([
    { match: { payment_type: "SCAN_TO_PAY" }, fee: { percent: 2.5, min: 50 } },
  ]);
  await page.reload();
  await expect(page.getByTestId("rule-1").getByLabel("Percent of the total")).toHaveValue("2.5");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-revenue-en-${width}.png`, fullPage: true });
  }

  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ingresos");
  await expect(page.getByTestId("so-far-volume")).toContainText("3 pagos");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-revenue-es-${width}.png`, fullPage: true });
  }
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);

  // The first merchant's settlement on its page in the dashboard: the ISV's fee has its column, and
  // the row's lines add up to the settlement's net (the API's), as do the home's.
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: first.id } });
  const settled = (await (await request.get(`/v1/settlements?merchant_id=${first.id}`, { headers })).json()).data[0];
  await page.goto(`/dashboard/merchants/${first.id}?tab=payouts`);
  const settlementRow = page.getByTestId("settlements").getByTestId("settlement-row");
  await expect(settlementRow).toHaveCount(1);
  // The ISV reads about the merchant's bank, not its own.
  await expect(page.getByTestId("balance-available")).toContainText("not yet sent to the merchant's bank");
  await expect(page.getByTestId("settlements").getByRole("columnheader", { name: "Revenue ISV fee" })).toBeVisible();
  await expect(settlementRow.locator('[data-line="platform_fees"]')).toHaveText("-$3.00");
  await expect(settlementRow.getByTestId("settlement-net")).toHaveText(money(settled.net));
  const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
  const lineCells = await settlementRow.locator("[data-line]").allTextContents();
  expect(lineCells.reduce((sum, text) => sum + cents(text), 0)).toBe(settled.net);
  await page.screenshot({ path: "test-results/screens/dashboard-settlement-platform-fee-1280.png", fullPage: true });
});
