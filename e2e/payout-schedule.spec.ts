import { approvedMerchant, createIsvWithCli, expectAxeClean, paidCharge, signIn } from "./helpers";
import { expect, type Page, test } from "./test";

// Money out on the merchant's terms (docs/reference.md section 20), in its home: the schedule is
// the ISV's until the ISV lets the merchant change it; the merchant then sets a weekly schedule with
// a minimum, and pays out part of its balance now, after a confirmation that says how much and where.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

test("the merchant sets its payout schedule and pays out part of its balance now, in English and Spanish", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Schedule Shop");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  // Paid out only when asked: the day's settlement makes the money available and pays nothing.
  await request.patch(`/v1/merchants/${merchant.id}`, { headers, data: { payout_schedule: { interval: "manual" } } });
  await paidCharge(request, isv, merchant, 10_000);
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await expect(page).toHaveURL(/\/home$/);

  // The ISV has not let the merchant change its schedule: it is said, not offered.
  await page.goto("/home/payouts");
  await expect(page.getByTestId("schedule-says")).toHaveText(
    "Payouts only when you ask for them · arrives 1 business day after it is sent",
  );
  await expect(page.getByText("Your software provider sets this schedule.")).toBeVisible();
  await expect(page.getByTestId("next-payout")).toHaveText("Next payout$96.80Ready to pay out when you ask");
  await expect(page.getByLabel("How often")).toHaveCount(0);

  await request.patch("/v1/account", { headers, data: { settings: { merchant_can_change_schedule: true } } });
  await page.reload();
  await page.getByLabel("How often").selectOption({ label: "Once a week" });
  await page.getByLabel("Day of the week").selectOption({ label: "Friday" });
  await page.getByLabel("Time to reach your bank").selectOption({ label: "2 business days" });
  await page.getByLabel("Smallest payout, in dollars (empty: any amount)").fill("50.00");
  await page.getByRole("button", { name: "Save the schedule" }).click();
  await expect(page.getByTestId("schedule-saved")).toHaveText("Saved.");
  await expect(page.getByTestId("schedule-says")).toHaveText(
    "A payout every Friday · arrives 2 business days after it is sent · smaller balances wait until they reach $50.00",
  );
  const saved = await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json();
  expect(saved.payout_schedule).toEqual({
    interval: "weekly",
    weekly_anchor: "friday",
    monthly_anchor: null,
    delay_days: 2,
    minimum_amount: 5_000,
  });
  // A minimum that is not an amount is said beside its field, and changes nothing.
  await page.getByLabel("Smallest payout, in dollars (empty: any amount)").fill("fifty");
  await page.getByRole("button", { name: "Save the schedule" }).click();
  await expect(page.locator("#schedule-minimum_amount-error")).toHaveText(
    "Enter an amount in dollars, such as 50.00, or leave it empty.",
  );
  await expect(page.getByLabel("Smallest payout, in dollars (empty: any amount)")).toBeFocused();
  expect((await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).payout_schedule).toEqual(
    saved.payout_schedule,
  );

  // Pay out now: $96.80 available (100.00 less 3.20); more is refused before anything is asked.
  await page.reload();
  await expect(page.getByText("Available to pay out now: $96.80")).toBeVisible();
  await page.getByLabel("Amount, in dollars").fill("200");
  await page.getByRole("button", { name: "Pay out", exact: true }).click();
  await expect(page.locator("#pay-out-error")).toHaveText("That is more than is available: at most $96.80.");
  await page.getByLabel("Amount, in dollars").fill("40");
  await page.getByRole("button", { name: "Pay out", exact: true }).click();
  await expect(page.getByText("Send $40.00 to your bank account ending")).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-payouts-confirm");
  await page.getByRole("button", { name: "Yes, pay it out" }).click();
  await expect(page.getByTestId("pay-out-status")).toHaveText(
    "$40.00 is on its way to your bank. It is listed under Payouts.",
  );
  const payouts = (await (await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers })).json()).data;
  expect(payouts.map((p: { amount: number; automatic: boolean }) => [p.amount, p.automatic])).toEqual([[4_000, false]]);
  await page.reload();
  await expect(page.getByText("Available to pay out now: $56.80")).toBeVisible();
  // The next payout is the one on its way.
  await expect(page.getByTestId("next-payout")).toContainText("$40.00");
  await expectAxeClean(page);
  await shots(page, "home-payouts-schedule");

  // In Spanish: the schedule and the balance in the reader's words.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL }]);
  await page.reload();
  await expect(page.getByTestId("schedule-says")).toContainText("Una transferencia cada viernes");
  await expect(page.getByText(/Disponible para transferir ahora: (US)?\$\s?56[.,]80/)).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-payouts-schedule-es");
});

test("the ISV sets a merchant's payout schedule on its page in the dashboard; a schedule that makes no sense is refused in words", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const isv = createIsvWithCli("Schedule Platform");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  await signIn(page, isv);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payouts`);
  await expect(page.getByRole("heading", { name: "Payout schedule" })).toBeVisible();
  await expect(page.getByLabel("How often")).toHaveValue("daily");
  await page.getByLabel("How often").selectOption({ label: "Once a month" });
  await page.getByLabel("Day of the month").selectOption("31");
  await page.getByLabel("Time to reach the merchant's bank").selectOption({ label: "3 business days" });
  await page.getByRole("button", { name: "Save the schedule" }).click();
  await expect(page.getByTestId("schedule-saved")).toHaveText("Saved.");
  expect((await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).payout_schedule).toEqual({
    interval: "monthly",
    weekly_anchor: null,
    monthly_anchor: 31,
    delay_days: 3,
    minimum_amount: 0,
  });
  await page.getByLabel("How often").selectOption({ label: "Only when asked for (POST /v1/payouts)" });
  await page.getByLabel("Smallest payout, in dollars (empty: any amount)").fill("-5");
  await page.getByRole("button", { name: "Save the schedule" }).click();
  await expect(page.locator("#schedule-minimum_amount-error")).toHaveText(
    "Enter an amount in dollars, such as 50.00, or leave it empty.",
  );
  expect((await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).payout_schedule.interval).toBe(
    "monthly",
  );
  await expectAxeClean(page);
  await shots(page, "dashboard-merchant-schedule");
});
