import { approvedMerchant, createIsvWithCli, expectAxeClean } from "./helpers";
import { type APIRequestContext, expect, test } from "./test";

// The merchant's home (docs/reference.md section 15): the ISV's "Open your payments" button makes
// a single-use link; the merchant lands on its overview on the ISV's brand; the sign-in page e-mails
// a link to the contact's address.

async function paidCharge(
  request: APIRequestContext,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
) {
  const headers = { authorization: isv.auth };
  const pr = await (
    await request.post("/v1/scan_to_pay", { headers, data: { merchant_id: merchant.id, amount } })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  const paid = await (await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } })).json();
  expect(paid.charge.status).toBe("AUTHORIZED");
  return paid.charge.id as string;
}

test("the ISV's login link opens the merchant's home: today's payments, the next settlement, the latest payments; single use; sign out", async ({
  page,
  request,
  baseURL,
}) => {
  const isv = createIsvWithCli("Home POS");
  const merchant = await approvedMerchant(request, isv);
  const chargeId = await paidCharge(request, isv, merchant, 2599);
  const link = await (
    await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers: { authorization: isv.auth } })
  ).json();
  expect(link.object).toBe("login_link");
  const path = new URL(link.url).pathname;

  await page.goto(path);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Golden Gate Noodle House LLC");
  await expect(page.getByTestId("brand-name")).toHaveText("Home POS");
  await expect(page.getByTestId("today")).toContainText("$25.99");
  await expect(page.getByTestId("today")).toContainText("1 payment");
  await expect(page.getByTestId("next-settlement")).toContainText("$25.99");
  const row = page.getByTestId("recent-payments").getByRole("row").nth(1);
  await expect(row).toContainText("$25.99");
  await expect(row).toContainText("Visa •••• 4242");
  await expect(row).toContainText("Paid");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/home-overview-en-${width}.png`, fullPage: true });
  }
  const cookie = (await page.context().cookies()).find((c) => c.name === "merchant_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(11.9 * 3600 * 1000);

  // All payments, filtered: by the card's last 4, by amount; a bad value is said beside its field.
  await page.getByRole("link", { name: "All payments" }).click();
  await expect(page).toHaveURL(/\/home\/payments$/);
  await page.getByLabel("Last 4 digits of the card or account").fill("4242");
  await page.getByLabel("Amount (USD)").fill("25.99");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByTestId("payments").getByRole("row")).toHaveCount(2);
  await page.getByLabel("Amount (USD)").fill("1.00");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("No payment matches these filters.")).toBeVisible();
  await page.getByLabel("Last 4 digits of the card or account").fill("42a2");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByLabel("Last 4 digits of the card or account")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Four digits, like 4242.")).toBeVisible();
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/home-payments-${width}.png`, fullPage: true });
  }
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await page.goto("/home");

  // The payment's own page: a partial refund, confirmed before it is sent; the API agrees.
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/home/payments/${chargeId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment of $25.99");
  await page.getByLabel("Amount to refund (USD)").fill("10");
  await page.getByRole("button", { name: "Review the refund" }).click();
  await page.getByRole("button", { name: "Refund $10.00" }).click();
  await expect(page.getByRole("status")).toHaveText("Refunded $10.00.");
  await expect(page.getByTestId("refunds").getByRole("row")).toHaveCount(2);
  const viaApi = await (await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })).json();
  expect(viaApi.amount_refunded).toBe(1000);
  const events = await (
    await request.get("/v1/events?type=charge.refunded", { headers: { authorization: isv.auth } })
  ).json();
  expect(events.data.map((e: any) => e.data.object.id)).toContain(chargeId);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: "test-results/screens/home-payment-375.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  // Another merchant's charge (same ISV) under this session: not found, nothing of it shown.
  const sibling = await approvedMerchant(request, isv);
  const theirs = await paidCharge(request, isv, sibling, 4321);
  const foreign = await page.goto(`/home/payments/${theirs}`);
  expect(foreign!.status()).toBe(404);
  expect(await page.content()).not.toContain("43.21");
  // The month's statement, downloaded from the home.
  const period = new Date().toISOString().slice(0, 7);
  await request.post("/v1/test_helpers/statements/generate", {
    headers: { authorization: isv.auth },
    data: { merchant_id: merchant.id, period },
  });
  await page.goto("/home");
  const monthName = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(),
  );
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: `PDF of ${monthName}` }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`statement-${merchant.id}-${period}.pdf`);
  const fs = await import("node:fs");
  expect(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");

  // In Spanish, at 375 px.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.reload();
  await expect(page.getByRole("heading", { name: "Últimos pagos" })).toBeVisible();
  await expect(page.getByTestId("today")).toContainText("$15.99"); // after the refund; es-US, as every page shows dollars
  await expect(page.getByTestId("recent-payments").getByRole("row").nth(1)).toContainText("Pagado");
  await expectAxeClean(page);
  await page.screenshot({ path: "test-results/screens/home-overview-es-375.png", fullPage: true });
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);

  // Sign out; the same link again: used, said so on the sign-in page.
  await page.reload();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/home\/sign-in$/);
  await page.goto("/home");
  await expect(page).toHaveURL(/\/home\/sign-in$/);
  await page.goto(path);
  await expect(page).toHaveURL(/\/home\/sign-in\?link=used$/);
  await expect(page.locator("main").getByRole("alert")).toHaveText(/already used or has expired/);
});

test("the sign-in page e-mails a single-use link to the contact's address, and says the same for an unknown one", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Mail POS");
  const merchant = await approvedMerchant(request, isv);
  await page.goto("/home/sign-in");
  await expectAxeClean(page);
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText("Enter an e-mail address, like name@example.com.");
  const answer = "If this address belongs to an approved merchant, a sign-in link is on its way. Check your inbox.";
  await page.getByLabel("E-mail address").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.locator("main").getByRole("status")).toHaveText(answer);
  await page.getByLabel("E-mail address").fill("mei@example.com");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.locator("main").getByRole("status")).toHaveText(answer);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `test-results/screens/home-sign-in-${width}.png`, fullPage: true });
  }
  // The e-mail is queued after the answer (which takes the same time for any address).
  let mail: any;
  await expect
    .poll(async () => {
      const outbox = await (
        await request.get("/v1/test_helpers/outbox", { headers: { authorization: isv.auth } })
      ).json();
      mail = outbox.data.find((m: any) => m.merchant_id === merchant.id && m.kind === "home_sign_in");
      return Boolean(mail);
    })
    .toBe(true);
  expect(mail.to).toBe("mei@example.com");
  await page.goto(new URL(mail.text.match(/(http\S+\/home\/login\/\S+)/)[1]).pathname);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId("brand-name")).toHaveText("Mail POS");
});
