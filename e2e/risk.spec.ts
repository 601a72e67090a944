import { application, approvedMerchant, createIsvWithCli, expectAxeClean, paidCharge, signIn } from "./helpers";
import { expect, type Page, test } from "./test";

// Risk after approval (docs/reference.md section 20): the ISV chooses what an alert does on its risk
// page; a merchant's payment breaks a rule; the alert is shown to the ISV with its figures in words
// and to the merchant as a banner saying what happened and what to do; the ISV resolves it.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

test("an alert on the ISV's risk page and in the merchant's home, in English and Spanish; resolved by the ISV", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Risk Platform");
  const headers = { authorization: isv.auth };
  const app = application();
  app.current_sales.highest_amount_to_date = "100";
  const merchant = await approvedMerchant(request, isv, app);

  await signIn(page, isv);
  await page.goto("/dashboard/risk");
  await expect(page.getByRole("heading", { name: "Risk", exact: true })).toBeVisible();
  await expect(page.getByText("No open alerts.")).toBeVisible();
  await page.getByLabel("A very large payment").selectOption({ label: "Pause payouts until a person resolves it" });
  await page.getByRole("button", { name: "Save the actions" }).click();
  await expect(page.getByTestId("risk-actions-saved")).toHaveText("Saved.");
  const account = await (await request.get("/v1/account", { headers })).json();
  expect(account.settings.risk_actions.large_ticket).toBe("review");

  await paidCharge(request, isv, merchant, 25_000);
  const run = await (
    await request.post("/v1/test_helpers/risk/run", { headers, data: { merchant_id: merchant.id } })
  ).json();
  expect(run.data.map((a: { rule: string }) => a.rule)).toEqual(["large_ticket"]);
  await page.reload();
  const open = page.getByTestId("risk-open");
  await expect(open).toContainText("A very large payment");
  await expect(open).toContainText("A payment of $250.00; the limit is $200.00 (twice the declared highest)");
  await expect(open).toContainText("Pause payouts until a person resolves it");
  await expectAxeClean(page);
  await shots(page, "dashboard-risk");

  // The merchant's home says what happened and what to do.
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  const home = await page.context().browser()!.newPage();
  await home.goto(new URL(link.url, baseURL).toString());
  const banner = home.getByTestId("risk-banner");
  await expect(banner).toContainText("A payment of $250.00 was much larger than the largest you told us to expect.");
  await expect(banner).toContainText("Your payouts are paused until Risk Platform has reviewed this.");
  await expect(banner).toContainText("keep its receipt and the customer's details");
  await expectAxeClean(home);
  await shots(home, "home-risk-banner");
  await home.context().addCookies([{ name: "locale", value: "es", url: baseURL }]);
  await home.goto(new URL("/home/payouts", baseURL).toString());
  await expect(home.getByTestId("risk-banner")).toContainText(
    "Sus transferencias están en pausa hasta que Risk Platform lo haya revisado.",
  );
  await expectAxeClean(home);
  await shots(home, "home-risk-banner-es");

  await page.getByRole("button", { name: /Resolve the alert: A very large payment/ }).click();
  await expect(page.getByText("No open alerts.")).toBeVisible();
  await expect(page.getByTestId("risk-resolved")).toContainText("Resolved by your team");
  await home.reload();
  await expect(home.getByTestId("risk-banner")).toHaveCount(0);
});
