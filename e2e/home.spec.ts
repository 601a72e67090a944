import { startReceiver } from "../tests/helpers/receiver";
import { verifySignature } from "../tests/helpers/signature";
import { clickPay, fillCard } from "./card-frame";
import { application, approvedMerchant, createIsvWithCli, expectAxeClean, operatorOutbox } from "./helpers";
import { stepUp } from "./step-up";
import { type APIRequestContext, expect, type Page, test } from "./test";

// The merchant's home (docs/reference.md section 15): the ISV's "Open your payments" button makes
// a single-use link; the merchant lands on its overview on the ISV's brand; the sign-in page e-mails
// a link to the contact's address.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

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

/** The same page in Spanish (its screenshots), then back to English. */
async function inSpanish(page: Page, baseURL: string, heading: string, name: string) {
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL }]);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expectAxeClean(page);
  await shots(page, name);
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL }]);
  await page.reload();
}

test("the ISV's login link opens the merchant's home: today's payments, the next settlement, the latest payments; single use; sign out", async ({
  page,
  request,
  baseURL,
}) => {
  // Onboarding through the API, underwriting, a refund, two languages, live updates: a long journey
  // on a loaded 2-core machine (CI once took 90 s with other work running).
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Home POS");
  const merchant = await approvedMerchant(request, isv);
  // The ISV's webhook: the refund the merchant makes in its home reaches it, signed.
  const receiver = await startReceiver();
  const hook = await (
    await request.post("/v1/webhooks", {
      headers: { authorization: isv.auth },
      data: { url: receiver.url, scopes: ["charge"] },
    })
  ).json();
  const chargeId = await paidCharge(request, isv, merchant, 2599);
  const link = await (
    await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers: { authorization: isv.auth } })
  ).json();
  expect(link.object).toBe("login_link");
  const path = new URL(link.url).pathname;

  await page.goto(path);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Overview");
  await expect(page.getByTestId("home-business")).toHaveText("Golden Gate Noodles");
  await expect(page.getByRole("link", { name: "Overview", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("brand-name")).toHaveText("Home POS");
  await expect(page.getByTestId("today")).toContainText("$25.99");
  await expect(page.getByTestId("today")).toContainText("1 payment");
  await expect(page.getByTestId("next-settlement")).toContainText("$25.99");
  // Before fees, and said so (the balance beside it is after them).
  await expect(page.getByTestId("next-settlement")).toContainText("Next settlement, before fees");
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
  await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).type === "charge.refunded"));
  const delivered = receiver.received.find((x) => JSON.parse(x.body).type === "charge.refunded")!;
  expect(verifySignature(hook.secret, delivered)).toBe(true);
  expect(JSON.parse(delivered.body).data.object).toMatchObject({ id: chargeId, amount_refunded: 1000 });
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
  // Settled: the settlement's own page, line by line, adds up to what reaches the bank.
  const run = await (
    await request.post("/v1/test_helpers/settlement/run", {
      headers: { authorization: isv.auth },
      data: { merchant_id: merchant.id },
    })
  ).json();
  const settlement = run.data[0];
  expect([settlement.gross, settlement.refunds]).toEqual([2599, 1000]);
  await page.goto("/home");
  await page.getByTestId("settlements").getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/home/settlements/${settlement.id}$`));
  await expect(page.getByTestId("sum-gross")).toHaveText("$25.99");
  await expect(page.getByTestId("sum-refunds")).toHaveText("-$10.00");
  await expect(page.getByTestId("sum-fees")).toHaveText(`-$${(settlement.fees / 100).toFixed(2)}`);
  await expect(page.getByTestId("sum-net")).toHaveText(`$${(settlement.net / 100).toFixed(2)}`);
  await expect(page.getByTestId("settlement-lines").getByRole("row")).toHaveCount(3);
  await expectAxeClean(page);
  await shots(page, "home-settlement-en");
  // Its payout, line by line from the ledger: the payments less their fees and the refund, adding up to it.
  // The home's navigation has its Payouts section (lit on the payouts' pages).
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Payouts" }).click();
  await expect(page).toHaveURL(/\/home\/payouts$/);
  await expect(page.getByRole("link", { name: "Payouts", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("balance-pending")).toContainText("$0.00");
  await expect(page.getByTestId("balance-pending")).toContainText("Not yet settled");
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  await page
    .getByTestId("payouts")
    .getByRole("link", { name: new RegExp(`^\\${dollars(settlement.net)}: See what it pays`) })
    .click();
  await expect(page).toHaveURL(/\/home\/payouts\/po_/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Payout of ${dollars(settlement.net)}`);
  await expect(page.getByTestId("line-charge")).toHaveCount(settlement.charge_count);
  // Each payment line says which payment: the card and its last 4.
  await expect(page.getByTestId("line-charge").first()).toContainText("Payment · Visa •••• 4242");
  await expect(page.getByTestId("line-refund")).toHaveCount(1);
  const nets = await page.getByTestId("line-net").allTextContents();
  const cents = nets.map((t) => Math.round(Number(t.replace(/[^0-9.-]/g, "")) * 100));
  expect(cents.reduce((a, b) => a + b, 0)).toBe(settlement.net);
  await expect(page.getByTestId("lines-total")).toHaveText(dollars(settlement.net));
  await expect(page.getByTestId("lines-add-up")).toHaveText(
    `These lines add up to the payout: ${dollars(settlement.net)}.`,
  );
  await expectAxeClean(page);
  await shots(page, "home-payout-en");
  await inSpanish(page, baseURL!, `Transferencia de ${dollars(settlement.net)}`, "home-payout-es");
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
  await expect(page.getByTestId("recent-payments").getByRole("row").nth(1)).toContainText("Liquidado");
  await expectAxeClean(page);
  await page.screenshot({ path: "test-results/screens/home-overview-es-375.png", fullPage: true });
  // A payment taken meanwhile (at the counter) appears without a reload.
  await paidCharge(request, isv, merchant, 1000);
  await expect(page.getByTestId("today")).toContainText("$25.99", { timeout: 15_000 });
  await expect(page.getByTestId("recent-payments").getByRole("row")).toHaveCount(3);
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
  await receiver.close();
});

test("the sign-in page e-mails a single-use link to the contact's address, and says the same for an unknown one", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Mail POS");
  // An address of this merchant alone: the journeys' other merchants share the example's contact,
  // and a sign-in e-mails at most five merchants of one address.
  const app = application();
  const address = `mei-${Date.now()}@example.com`;
  app.main_contact_person.email = address;
  const merchant = await approvedMerchant(request, isv, app);
  await page.goto("/home/sign-in");
  await expectAxeClean(page);
  await page.getByLabel("E-mail address").fill("not-an-address");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText("Enter an e-mail address, like name@example.com.");
  const answer = "If this address belongs to an approved merchant, a sign-in link is on its way. Check your inbox.";
  await page.getByLabel("E-mail address").fill("nobody-here@example.com");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.locator("main").getByRole("status")).toHaveText(answer);
  await page.getByLabel("E-mail address").fill(address);
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
      mail = operatorOutbox(isv.account_id).find((m) => m.merchant_id === merchant.id && m.kind === "home_sign_in");
      return Boolean(mail);
    })
    .toBe(true);
  expect(mail.to).toBe(address);
  // Queued from the page's server action (inside the Next build): every placeholder formatted.
  expect(mail.text).toContain("Mail POS");
  expect(mail.text).not.toMatch(/\{\w+\}/);
  await page.goto(new URL(mail.text.match(/(http\S+\/home\/login\/\S+)/)[1]).pathname);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId("brand-name")).toHaveText("Mail POS");
});

test("in its home the merchant keys a card in place, shows a QR code that is paid, downloads its agreement, edits its contact and makes its own API key; the same in Spanish at 375 px", async ({
  page,
  request,
  baseURL,
}) => {
  // Two languages, a card, a QR payment, a PDF, an API key and the accessibility checks: 2.2 min on a loaded machine.
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Home Till");
  const merchant = await approvedMerchant(request, isv);
  const link = await (
    await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers: { authorization: isv.auth } })
  ).json();
  await page.goto(new URL(link.url).pathname);
  await expect(page).toHaveURL(/\/home$/);

  // Take a payment: a card the customer reads on the phone, typed into the card frame on the home's own page.
  await page.getByRole("link", { name: "Take a payment" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Take a payment");
  await expect(page.getByText("No requests yet.")).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-take-payment-en");
  await expect(page.getByLabel("How the customer pays")).toHaveValue("MANUAL");
  await page.getByLabel("Amount (USD)").fill("4.2.5");
  await page.getByRole("button", { name: "Create the request" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText(
    "Enter an amount in dollars, for example 25 or 12.50.",
  );
  await page.getByLabel("Amount (USD)").fill("42.50");
  await page.getByLabel(/What it is for/).fill("Phone order 7");
  await page.getByRole("button", { name: "Create the request" }).click();
  await expect(page).toHaveURL(/\/home\/take-payment\/pr_[0-9A-Za-z]{22}$/);
  const requestId = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("$42.50 payment");
  await expect(page.getByText("Keyed by staff · Phone order 7")).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await expectAxeClean(page);
  await shots(page, "home-take-card-en");
  await clickPay(page, "Charge $42.50");
  await expect(page.getByTestId("request-paid")).toHaveText("Paid. The payment is in your payments list.");
  await page.getByRole("link", { name: "Open the payment" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment of $42.50");
  const viaApi = await (
    await request.get(`/v1/payment_requests/${requestId}`, { headers: { authorization: isv.auth } })
  ).json();
  expect([viaApi.status, viaApi.payment_type, viaApi.merchant_id]).toEqual(["PAID", "MANUAL", merchant.id]);
  expect(page.url()).toContain(`/home/payments/${viaApi.charge_id}`);

  // A QR code for the counter: the customer pays on their phone, the page says so by itself.
  await page.getByRole("link", { name: "Take a payment" }).click();
  await page.getByLabel("How the customer pays").selectOption("SCAN_TO_PAY");
  await page.getByLabel("Amount (USD)").fill("5");
  await page.getByRole("button", { name: "Create the request" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("$5.00 payment");
  const qr = page.getByTestId("request-qr");
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await shots(page, "home-take-qr-en");
  const qrRequest = page.url().split("/").pop()!;
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  expect((await request.post(`/v1/payment_requests/${qrRequest}/pay`, { data: { token: token.id } })).status()).toBe(
    200,
  );
  await expect(page.getByTestId("request-paid")).toBeVisible({ timeout: 15_000 });
  await page.getByRole("link", { name: "Take a payment" }).click();
  await expect(page.getByTestId("requests").getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("requests").getByRole("listitem").first()).toContainText("$5.00");

  // Documents: the agreement as signed, as a PDF.
  await page.getByRole("link", { name: "Documents" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Documents");
  await expect(page.getByTestId("agreement-signed")).toContainText("Signed by Mei Chen on");
  const [agreement] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download the agreement (PDF)" }).click(),
  ]);
  expect(agreement.suggestedFilename()).toBe(`merchant-agreement-${merchant.id}.pdf`);
  const fs = await import("node:fs");
  const pdf = fs.readFileSync((await agreement.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  await expectAxeClean(page);
  await shots(page, "home-documents-en");

  // Settings: the contact (a bad e-mail said beside its field, nothing saved), then the merchant's own key.
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");
  await expectAxeClean(page);
  await shots(page, "home-settings-step-up-en");
  await inSpanish(page, baseURL!, "Configuración", "home-settings-step-up-es");
  await expect(page.getByTestId("step-up")).toContainText("Confirm it’s you");
  await stepUp(page, isv, merchant.id);
  await expect(page.getByTestId("bank-account")).toHaveText(/account ending in \d{4}\.$/);
  await page.getByLabel("Contact e-mail").fill("ana@");
  await page.getByRole("button", { name: "Save the contact" }).click();
  await expect(page.getByLabel("Contact e-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Contact e-mail")).toBeFocused();
  const before = await (
    await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(before.merchant.main_contact_person.email).not.toBe("ana@");
  await page.getByLabel("Contact name").fill("Ana Ruiz");
  await page.getByLabel("Contact e-mail").fill("ana@example.com");
  await page.getByRole("button", { name: "Save the contact" }).click();
  await expect(page.getByTestId("contact-saved")).toHaveText("Saved.");
  // The name at once; the new address only once it confirms (a link sent there), and the old one is told.
  await expect(page.getByTestId("contact-pending")).toContainText("ana@example.com");
  const pendingContact = await (
    await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(pendingContact.merchant.main_contact_person).toEqual({
    name: "Ana Ruiz",
    email: before.merchant.main_contact_person.email,
  });
  const mailOf = async (kind: string) => {
    let found: any;
    await expect
      .poll(async () => {
        found = operatorOutbox(isv.account_id).find((m) => m.merchant_id === merchant.id && m.kind === kind);
        return Boolean(found);
      })
      .toBe(true);
    return found;
  };
  const confirm = await mailOf("contact_email_confirm");
  expect(confirm.to).toBe("ana@example.com");
  const notice = await mailOf("contact_email_changing");
  expect(notice.to).toBe(before.merchant.main_contact_person.email);
  const confirmPage = await page.context().newPage();
  await confirmPage.goto(new URL(confirm.text.match(/(http\S+\/home\/confirm-email\/\S+)/)[1]).pathname);
  await expect(confirmPage.getByRole("heading", { level: 1 })).toHaveText("Confirm your new contact e-mail");
  await expectAxeClean(confirmPage);
  await shots(confirmPage, "home-confirm-email-en");
  await inSpanish(confirmPage, baseURL!, "Confirme su nuevo correo de contacto", "home-confirm-email-es");
  await confirmPage.getByRole("button", { name: "Confirm this address" }).click();
  await expect(confirmPage.getByTestId("confirm-done")).toContainText("Your contact e-mail is changed");
  await confirmPage.close();
  const after = await (
    await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(after.merchant.main_contact_person).toEqual({ name: "Ana Ruiz", email: "ana@example.com" });
  // A new bank account: the wizard's rules (said in words), then verified again; this one needs a statement.
  await expect(page.getByTestId("bank-check")).toHaveText("Verified.");
  await page.getByLabel("Account holder's name").fill("Golden Gate Noodles LLC");
  await page.getByLabel("Bank name").fill("Bay Credit Union");
  await page.getByLabel("Routing number (9 digits)").fill("121000359");
  await page.getByLabel("Account number", { exact: true }).fill("000444444440");
  await page.getByLabel("Account number again").fill("000444444440");
  await page.getByRole("button", { name: "Save the new account" }).click();
  await expect(page.getByLabel("Routing number (9 digits)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("The routing number does not pass the bank's check.", { exact: false })).toBeVisible();
  await expect(page.getByTestId("bank-account")).toHaveText(/ending in 6789\.$/);
  await page.getByLabel("Routing number (9 digits)").fill("121000358");
  await page.getByRole("button", { name: "Save the new account" }).click();
  await expect(page.getByTestId("bank-saved")).toHaveText("Saved.");
  await expect(page.getByTestId("bank-account")).toHaveText(
    "Payments are paid to Bay Credit Union, account ending in 4440.",
  );
  await expect(page.getByTestId("bank-check")).toHaveText(
    "We need a bank statement or a voided check for this account before money is sent to it.",
    { timeout: 15_000 },
  );
  await expectAxeClean(page);
  await shots(page, "home-settings-bank-document-en");
  // The overview says it too, and leads back here.
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("due-bank_account")).toContainText("Your new bank account is not verified yet");
  await page.getByRole("link", { name: "Finish verifying the account" }).click();
  await expect(page).toHaveURL(/\/home\/settings$/);

  await page.getByLabel("Bank account document").setInputFiles({
    name: "statement.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(
      "%PDF-1.4\n% statement\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
    ),
  });
  await page.getByRole("button", { name: "Send document" }).click();
  await expect(page).toHaveURL(/\/home\/settings\?upload=done$/);
  await expect(page.getByTestId("bank-check")).toHaveText("Verified.", { timeout: 15_000 });
  await page.getByRole("link", { name: "Documents" }).click();
  await expect(page.getByTestId("files")).toContainText("statement.pdf");
  await page.getByRole("link", { name: "Settings" }).click();

  const sid = await page.getByTestId("merchant-account-sid").textContent();
  await page.getByRole("button", { name: "Rotate the secret key" }).click();
  const secret = await page.getByTestId("new-secret").textContent();
  expect(secret).toMatch(/^sk_test_/);
  const own = `Basic ${Buffer.from(`${sid}:${secret}`).toString("base64")}`;
  const charges = await (await request.get("/v1/charges", { headers: { authorization: own } })).json();
  expect(charges.data.map((c: any) => c.merchant.id)).toEqual([merchant.id, merchant.id]);
  await expectAxeClean(page);
  await shots(page, "home-settings-en");

  // In Spanish, at 375 px: every section in the reader's words.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.setViewportSize({ width: 375, height: 900 });
  for (const [path, heading, name] of [
    ["/home/take-payment", "Cobrar un pago", "home-take-payment-es"],
    [`/home/take-payment/${requestId}`, "Pago de $42.50", "home-request-es"],
    ["/home/documents", "Documentos", "home-documents-es"],
    ["/home/settings", "Configuración", "home-settings-es"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.getByRole("navigation", { name: "Secciones" })).toBeVisible();
    await expectAxeClean(page);
    await page.screenshot({ path: `test-results/screens/${name}-375.png`, fullPage: true });
  }
  await expect(page.getByTestId("bank-account")).toHaveText(/cuenta terminada en \d{4}\.$/);

  // The bank account change was told to the contact with a "this wasn't me": it freezes the payouts
  // and signs this browser out.
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  const bankNotice = await mailOf("bank_account_changed");
  expect(bankNotice.text).toContain("4440");
  await page.goto(new URL(bankNotice.text.match(/(http\S+\/home\/report\/\S+)/)[1]).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Was this change yours?");
  await expectAxeClean(page);
  await shots(page, "home-report-change-en");
  await inSpanish(page, baseURL!, "¿Hizo usted este cambio?", "home-report-change-es");
  await page.getByRole("button", { name: "This wasn’t me: freeze my payouts" }).click();
  await expect(page.getByTestId("report-done")).toContainText("Your payouts are frozen");
  await page.goto("/home");
  await expect(page).toHaveURL(/\/home\/sign-in$/);
});

test("a payout the bank refuses: the home asks for a new bank account, and once it is verified the held money is paid", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Payout Cafe");
  const headers = { authorization: isv.auth };
  const app = application();
  // The sandbox's closed account: it verifies, but the bank refuses the payout.
  app.bank_account.account_number = "000555555550";
  app.bank_account.account_number_confirm = "000555555550";
  // A new bank account is paid as soon as it is verified here (no cooling-off days).
  await request.patch("/v1/account", {
    headers: { authorization: isv.auth },
    data: { settings: { new_bank_account_hold_days: 0 } },
  });
  const merchant = await approvedMerchant(request, isv, app);
  await paidCharge(request, isv, merchant, 10_000); // $100.00, fee $3.20: $96.80 to pay out
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  const payoutOf = async () =>
    (await (await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers })).json()).data as any[];
  await expect.poll(async () => (await payoutOf())[0]?.status, { timeout: 20_000 }).toBe("in_transit");
  const [first] = await payoutOf();
  const refused = await request.post(`/v1/test_helpers/payouts/${first.id}/advance`, { headers });
  expect((await refused.json()).failure_code).toBe("account_closed");

  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await expect(page.getByTestId("due-payout_failed")).toContainText("Your bank refused a payout of $96.80.");
  await expect(page.getByTestId("payouts").getByRole("row").nth(1)).toContainText("Refused by the bank");
  await expect(page.getByTestId("payouts").getByRole("row").nth(1)).toContainText("The account is closed");
  await expect(page.getByTestId("next-payout")).toContainText("Nothing on its way");
  await expectAxeClean(page);
  await shots(page, "home-payout-failed-en");

  await page.getByRole("link", { name: "Enter a new bank account" }).click();
  await expect(page).toHaveURL(/\/home\/settings$/);
  await stepUp(page, isv, merchant.id);
  await expect(page.getByTestId("payout-failed")).toContainText("Your bank refused a payout to this account.");
  await page.getByLabel("Account holder's name").fill("Payout Cafe LLC");
  await page.getByLabel("Bank name").fill("Bay Credit Union");
  await page.getByLabel("Routing number (9 digits)").fill("121000358");
  await page.getByLabel("Account number", { exact: true }).fill("000222333444");
  await page.getByLabel("Account number again").fill("000222333444");
  await page.getByRole("button", { name: "Save the new account" }).click();
  await expect(page.getByTestId("bank-saved")).toHaveText("Saved.");
  await expect(page.getByTestId("bank-check")).toHaveText("Verified.", { timeout: 15_000 });
  await expect(page.getByTestId("payout-failed")).toHaveCount(0);

  // Verified: a new payout pays what was refused, to the new account, on its way by itself.
  await expect
    .poll(async () => (await payoutOf()).find((p) => p.replaces === first.id)?.status, { timeout: 20_000 })
    .toBe("in_transit");
  const replacement = (await payoutOf()).find((p) => p.replaces === first.id);
  expect(replacement).toMatchObject({ amount: 9_680, bank_account: { last4: "3444", bank_name: "Bay Credit Union" } });
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("due-payout_failed")).toHaveCount(0);
  await expect(page.getByTestId("next-payout")).toContainText("$96.80");
  await expect(page.getByTestId("next-payout")).toContainText("Arrives");
  await expect(page.getByTestId(`payout-${replacement.id}`)).toContainText("On its way");
  await expect(page.getByTestId(`payout-${replacement.id}`)).toContainText("Account ending 3444");
  await request.post(`/v1/test_helpers/payouts/${replacement.id}/advance`, { headers });
  await page.reload();
  await expect(page.getByTestId(`payout-${replacement.id}`)).toContainText("Paid");
  await expect(page.getByTestId(`payout-${replacement.id}`)).toContainText("Pays again a payout the bank refused");
  await shots(page, "home-payout-paid-en");

  // In Spanish: the same, in the reader's words.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.reload();
  await expect(page.getByTestId(`payout-${replacement.id}`)).toContainText("Pagada");
  await expect(page.getByTestId(`payout-${first.id}`)).toContainText("Rechazada por el banco");
  await expectAxeClean(page);
  await shots(page, "home-payout-paid-es");
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
});

test("a sign-in link for another business, opened in a signed-in browser, asks first and changes nothing until told", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Switch POS");
  const headers = { authorization: isv.auth };
  const mine = await approvedMerchant(request, isv);
  const other = application();
  other.doing_business_as = "Mallory's Noodles";
  const theirs = await approvedMerchant(request, isv, other);
  const linkFor = async (id: string) =>
    new URL((await (await request.post(`/v1/merchants/${id}/login_links`, { headers })).json()).url).pathname;
  await page.goto(await linkFor(mine.id));
  await expect(page).toHaveURL(/\/home$/);
  // Someone else's link (an attacker's own, planted in a page): a question, not a silent switch.
  const planted = await linkFor(theirs.id);
  await page.goto(planted);
  await expect(page).toHaveURL(/\/home\/switch\//);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Open another business?");
  await expectAxeClean(page);
  await shots(page, "home-switch-en");
  await inSpanish(page, baseURL!, "¿Abrir otro negocio?", "home-switch-es");
  await expect(page.getByRole("main")).toContainText("The link you opened is for Mallory's Noodles.");
  await page.getByRole("link", { name: /^Stay in / }).click();
  await expect(page).toHaveURL(/\/home$/);
  // Still the first merchant's session; the link was not used, so "Open" then works once.
  await page.goto(planted);
  await page.getByRole("button", { name: "Open Mallory's Noodles" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("main")).toContainText("Mallory's Noodles");
  await page.goto(planted);
  await expect(page).toHaveURL(/\/home\/sign-in\?link=used$/);
});

test("a bank payment its bank returned: its page says so in words and what reached the merchant; today's figures leave it out", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Returned POS");
  const merchant = await approvedMerchant(request, isv);
  const headers = { authorization: isv.auth };
  const invoice = await (
    await request.post("/v1/invoice", { headers, data: { merchant_id: merchant.id, amount: 30_000, sendVia: "none" } })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: {
        bank_account: {
          routing_number: "021000021",
          account_number: "000222222227",
          account_holder_name: "Ana Ruiz",
          account_type: "checking",
        },
      },
    })
  ).json();
  const paid = await (
    await request.post(`/v1/payment_requests/${invoice.id}/pay`, {
      data: { token: token.id, ach_authorization: { accepted: true } },
    })
  ).json();
  const charge = paid.charge;
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  await expect
    .poll(async () => (await (await request.get(`/v1/charges/${charge.id}`, { headers })).json()).status, {
      timeout: 20_000,
    })
    .toBe("RETURNED");
  const fee = (await (await request.get(`/v1/charges/${charge.id}`, { headers })).json()).fee as number;
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await expect(page.getByTestId("today")).toContainText("$0.00");
  await page.goto(`/home/payments/${charge.id}`);
  const facts = page.getByTestId("charge-facts");
  await expect(facts).toContainText("Returned by the bank because");
  await expect(facts).toContainText("Insufficient funds");
  await expect(facts).not.toContainText("Decline reason");
  await expect(facts).not.toContainText("insufficient_funds");
  // The merchant's home never shows what the payment cost the platform, nor the ISV's margin.
  await expect(facts).not.toContainText("Costs");
  await expect(facts).not.toContainText("Margin");
  await expect(facts).toContainText(`To the merchant, after the return (the fee stays)-$${(fee / 100).toFixed(2)}`);
  await expectAxeClean(page);
  await shots(page, "home-payment-returned-en");
  await inSpanish(page, baseURL!, "Pago de $300.00", "home-payment-returned-es");
});
