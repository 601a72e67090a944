import { clickPay, fillCard } from "./card-frame";
import { approvedMerchant, createIsvWithCli, expectAxeClean, paidCharge, setAccount, signIn } from "./helpers";
import { stepUp } from "./step-up";
import { expect, type Page, test } from "./test";

// An instant payout in the merchant's home (docs/reference.md section 20): where its ISV enables
// them, the card says how much can arrive in minutes and at what fee; the confirmation says the fee
// and asks the merchant to acknowledge that it cannot be reversed; it is paid within seconds.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

test("the merchant takes an instant payout in its home, after acknowledging it cannot be reversed", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Instant Shop");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  await request.patch(`/v1/merchants/${merchant.id}`, { headers, data: { payout_schedule: { interval: "manual" } } });
  await paidCharge(request, isv, merchant, 10_000);
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await page.goto("/home/payouts");
  // Not enabled by the ISV: no card at all.
  await expect(page.getByRole("heading", { name: "Instant payout" })).toHaveCount(0);

  // The ISV turns them on in its dashboard's settings ("Money out"), with no markup.
  const dashboard = await page.context().browser()!.newPage();
  await signIn(dashboard, isv);
  await dashboard.goto("/dashboard/settings");
  await dashboard
    .getByLabel(
      "Merchants may take instant payouts (in minutes, to a bank that RTP or FedNow reaches, or to a debit card)",
    )
    .check();
  await dashboard.getByLabel("Your markup on instant payouts (percent of the amount)").fill("0.555");
  await dashboard.getByRole("button", { name: "Save money out settings" }).click();
  await expect(dashboard.locator("#money-out-markup_percent-error")).toHaveText(
    "Enter a percent from 0 to 10, two decimals at most.",
  );
  expect((await (await request.get("/v1/account", { headers })).json()).settings.instant_payouts_enabled).toBe(false);
  await dashboard.getByLabel("Your markup on instant payouts (percent of the amount)").fill("0");
  await expect(dashboard.getByTestId("instant-fee-says")).toHaveText(
    "The platform's cost is 1%; your merchants pay 1% of each instant payout, and your markup is your revenue.",
  );
  await dashboard.getByRole("button", { name: "Save money out settings" }).click();
  await expect(dashboard.getByTestId("money-out-saved")).toHaveText("Saved.");
  await expectAxeClean(dashboard);
  await shots(dashboard, "dashboard-money-out");
  expect((await (await request.get("/v1/account", { headers })).json()).settings).toMatchObject({
    instant_payouts_enabled: true,
    instant_payout_markup_bps: 0,
  });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Instant payout" })).toBeVisible();
  // 95.84 and its 1 % fee (0.96) are the 96.80 available.
  await expect(
    page.getByText("Up to $95.84 can reach your bank account ending 6789 in minutes, for a fee of 1% of the amount."),
  ).toBeVisible();
  await page.getByLabel("Amount, in dollars").last().fill("500");
  await page.getByRole("button", { name: "Pay out instantly" }).click();
  await expect(page.locator("#instant-error")).toHaveText(
    "That is more than can be paid out instantly: at most $95.84.",
  );
  await page.getByLabel("Amount, in dollars").last().fill("50");
  await page.getByRole("button", { name: "Pay out instantly" }).click();
  await expect(
    page.getByText("Send $50.00 now to your bank account ending 6789? The fee of $0.50 is taken from your balance."),
  ).toBeVisible();
  const yes = page.getByRole("button", { name: "Yes, pay out instantly" });
  await expect(yes).toBeDisabled();
  await page.getByLabel("I understand that an instant payout cannot be reversed.").check();
  await expectAxeClean(page);
  await shots(page, "home-instant-confirm");
  await yes.click();
  await expect(page.getByTestId("instant-status")).toHaveText(
    "$50.00 is on its way and will arrive in minutes. It is listed under Payouts.",
  );
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers })).json()).data.map(
          (p: { method: string; status: string; fee: number }) => `${p.method} ${p.status} ${p.fee}`,
        ),
      { timeout: 30_000 },
    )
    .toEqual(["instant paid 50"]);
  await page.reload();
  // What is left: 96.80 − 50.00 − 0.50 = 46.30, of which 45.84 instantly.
  await expect(page.getByText("Available to pay out now: $46.30")).toBeVisible();
  await expect(page.getByText(/Up to \$45\.84 can reach/)).toBeVisible();
  await expect(page.getByText("Instant, fee $0.50")).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-instant");

  // A debit card in the settings, through the card frame, after a fresh sign-in: a credit card is
  // refused in words; the debit card is then offered beside the bank account.
  await setAccount(request, isv, { settings: { new_bank_account_hold_days: 0 } });
  await page.goto("/home/settings");
  await expect(page.getByRole("heading", { name: "Debit card for instant payouts" })).toBeVisible();
  await expect(page.getByTestId("payout-card-step-up")).toBeVisible();
  await stepUp(page, isv, merchant.id);
  await expect(page.getByTestId("payout-card-on-file")).toHaveText("No debit card added.");
  await fillCard(page, "4242424242424242");
  await clickPay(page, "Add debit card");
  await expect(page.getByTestId("payout-card-problem")).toHaveText(
    "This is a credit card. Instant payouts are paid to a debit card only.",
  );
  await expect(page.getByTestId("payout-card-on-file")).toHaveText("No debit card added.");
  await fillCard(page, "5200828282828210");
  await clickPay(page, "Add debit card");
  await expect(page.getByTestId("payout-card-status")).toHaveText("Debit card added.");
  await expect(page.getByTestId("payout-card-on-file")).toHaveText(
    /^Mastercard debit card ending 8210, expires 12\/20\d\d$/,
  );
  // The card on file: the frame closes (a replacement opens it again, empty).
  await expect(page.getByTestId("tokenizer-frame")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Replace debit card" })).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-payout-card");
  await page.goto("/home/payouts");
  await page.getByRole("radio", { name: "your Mastercard debit card ending 8210" }).check();
  await expect(
    page.getByText(/^Up to \$45\.84 can reach your Mastercard debit card ending 8210 in minutes/),
  ).toBeVisible();
  await page.getByLabel("Amount, in dollars").last().fill("20");
  await page.getByRole("button", { name: "Pay out instantly" }).click();
  await expect(
    page.getByText(
      "Send $20.00 now to your Mastercard debit card ending 8210? The fee of $0.20 is taken from your balance.",
    ),
  ).toBeVisible();
  await page.getByLabel("I understand that an instant payout cannot be reversed.").check();
  await page.getByRole("button", { name: "Yes, pay out instantly" }).click();
  await expect(page.getByTestId("instant-status")).toHaveText(/^\$20\.00 is on its way/);
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers })).json()).data.map(
          (p: { rail: string; status: string; amount: number }) => `${p.rail} ${p.status} ${p.amount}`,
        ),
      { timeout: 30_000 },
    )
    .toEqual(["push_to_card paid 2000", "rtp paid 5000"]);
  await page.reload();
  await expect(page.getByTestId("payouts")).toContainText("Mastercard debit card •••• 8210");

  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Transferencia instantánea" })).toBeVisible();
  await expect(page.getByRole("radio", { name: "su tarjeta de débito Mastercard terminada en 8210" })).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-instant-es");
  await page.goto("/home/settings");
  await expect(page.getByTestId("payout-card-on-file")).toHaveText(/^Tarjeta de débito Mastercard terminada en 8210/);
  await shots(page, "home-payout-card-es");
});
