import { approvedMerchant, createIsvWithCli, expectAxeClean, paidCharge, signIn } from "./helpers";
import { expect, type Page, test } from "./test";

// Reserves (docs/reference.md section 20): the ISV holds part of a merchant's money on the merchant's
// page in the dashboard, with a reason; the merchant reads what is held, why and until when in its
// home, in English and Spanish; the ISV releases it.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

test("the ISV adds a reserve in the dashboard, the merchant sees it with its reason, the ISV releases it", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Reserve Platform");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  await request.patch(`/v1/merchants/${merchant.id}`, { headers, data: { payout_schedule: { interval: "manual" } } });
  await paidCharge(request, isv, merchant, 10_000);
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });

  await signIn(page, isv);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payouts`);
  await expect(page.getByRole("heading", { name: "Reserves" })).toBeVisible();
  await expect(page.getByText("No reserves.")).toBeVisible();
  // A percent that is not one is said beside its field, and nothing is made.
  await page.getByLabel("Percent of each settlement").fill("150");
  await page.getByLabel("Reason the merchant reads").fill("Too much");
  await page.getByRole("button", { name: "Add reserve" }).click();
  await expect(page.locator("#reserve-percent-error")).toHaveText(
    "Enter a percent from 0.01 to 100, two decimals at most.",
  );
  await expect(page.getByLabel("Percent of each settlement")).toBeFocused();
  const none = await (await request.get(`/v1/merchants/${merchant.id}/reserves`, { headers })).json();
  expect(none.data).toEqual([]);

  await page.getByLabel("Kind").selectOption({ label: "Fixed: an amount" });
  await page.getByLabel("Amount to hold (USD)").fill("50.00");
  await page.getByLabel("Reason the merchant reads").fill("Held while your first month of sales is reviewed");
  await page.getByRole("button", { name: "Add reserve" }).click();
  await expect(page.getByTestId("reserve-saved")).toHaveText("Reserve added.");
  await expect(page.getByTestId("reserves")).toContainText("$50.00 fixed · active");
  await expect(page.getByTestId("reserves")).toContainText("Holds $50.00");
  await expect(page.getByTestId("reserves")).toContainText("Reason: Held while your first month of sales is reviewed");
  const made = (await (await request.get(`/v1/merchants/${merchant.id}/reserves`, { headers })).json()).data;
  expect(made).toMatchObject([{ type: "fixed", amount: 5_000, held: 5_000, created_by: "isv" }]);
  // A rolling one too, by the API: it holds from the next settlement on.
  await request.post(`/v1/merchants/${merchant.id}/reserves`, {
    headers,
    data: { type: "rolling", percent: 10, hold_days: 90, reason: "Refunds rose above 10 % of sales" },
  });
  await page.reload();
  await expectAxeClean(page);
  await shots(page, "dashboard-merchant-reserves");

  // The merchant's home: what is held, why, and what is left to pay out.
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  const home = await page.context().browser()!.newPage();
  await home.goto(new URL(link.url, baseURL).toString());
  await home.goto(new URL("/home/payouts", baseURL).toString());
  const lines = home.getByTestId("reserve-lines");
  await expect(lines).toContainText("$50.00 held: fixed reserve, until your software provider releases it");
  await expect(lines).toContainText("Why: Held while your first month of sales is reviewed");
  await expect(lines).toContainText("10% of each settlement will be held for 90 days");
  await expect(home.getByText("Available to pay out now: $46.80")).toBeVisible();
  await expectAxeClean(home);
  await shots(home, "home-payouts-reserves");
  await home.context().addCookies([{ name: "locale", value: "es", url: baseURL }]);
  await home.reload();
  await expect(home.getByTestId("reserve-lines")).toContainText(
    /50[.,]00\s?(US)?\$? retenidos: reserva fija|\$\s?50[.,]00 retenidos: reserva fija/,
  );
  await expect(home.getByTestId("reserve-lines")).toContainText(
    "Motivo: Held while your first month of sales is reviewed",
  );
  await expectAxeClean(home);
  await shots(home, "home-payouts-reserves-es");

  // The ISV releases the fixed one: its $50.00 is available again.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Release the reserve: $50.00 fixed" }).click();
  await expect(page.getByTestId("reserves")).toContainText("$50.00 fixed · released");
  const balance = await (await request.get(`/v1/balance?merchant_id=${merchant.id}`, { headers })).json();
  expect(balance).toMatchObject({ available: 9_680, reserved: 0 });
});
