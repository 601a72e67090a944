import jsQR from "jsqr";
import { PNG } from "pngjs";

import { startReceiver } from "../tests/helpers/receiver";
import { verifySignature } from "../tests/helpers/signature";
import { clickPay, fillCard, readyFrame } from "./card-frame";
import { approvedMerchant, createIsvWithCli, expectAxeClean, setAccount, signIn } from "./helpers";
import { type APIRequestContext, expect, type Page, test } from "./test";

// The customer's side of payments: the hosted pages of every payment type, in Chromium.

type Isv = ReturnType<typeof createIsvWithCli>;

const shot = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // The card frame takes its content's new height (it says it, the page resizes it) before the picture.
    if ((await page.getByTestId("tokenizer-frame").count()) > 0)
      await expect
        .poll(() =>
          page
            .frameLocator('[data-testid="tokenizer-frame"]')
            .locator("html")
            .evaluate(() => document.documentElement.scrollHeight <= window.innerHeight),
        )
        .toBe(true);
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

// The tests share what beforeAll makes (its ISV, merchant or host page): one worker, in order.
test.describe.configure({ mode: "default" });
let isv: Isv;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
test.beforeAll(async ({ request }) => {
  isv = createIsvWithCli("Harbor POS");
  await request.patch("/v1/account", {
    headers: { authorization: isv.auth },
    data: { defaults: { primary_color: "#0F766E" } },
  });
  merchant = await approvedMerchant(request, isv);
});

const create = async (request: APIRequestContext, path: string, data: Record<string, unknown>) => {
  const res = await request.post(path, {
    headers: { authorization: isv.auth },
    data: { merchant_id: merchant.id, ...data },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
};
const getRequest = async (request: APIRequestContext, id: string) =>
  (await request.get(`/v1/payment_requests/${id}`, { headers: { authorization: isv.auth } })).json();

test("scan-to-pay: the QR opens the page; a declined card says why and stays payable; 4242 pays; charge.paid is delivered and verifies", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  const receiver = await startReceiver();
  const hook = await (
    await request.post("/v1/webhooks", {
      headers: { authorization: isv.auth },
      data: { url: receiver.url, scopes: ["charge"] },
    })
  ).json();
  try {
    const pr = await create(request, "/v1/scan_to_pay", {
      items: [
        { name: "Flat white", quantity: 2, unit_price: 450 },
        { name: "Almond croissant", quantity: 1, unit_price: 525 },
      ],
      taxPercent: "8.875",
      tip: 200,
    });
    // The PNG decodes to the pay page.
    const png = PNG.sync.read(Buffer.from(await (await request.get(new URL(pr.payment_asset_url).pathname)).body()));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
    expect(decoded).toBe(pr.pay_url);

    await page.goto(new URL(decoded!).pathname);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Pay /);
    await expect(page.getByTestId("total")).toHaveText("$17.51"); // 14.25 + 1.26 tax (8.875 % of 14.25 = 1.2647, half up) + 2.00 tip
    await expect(page.getByText("Almond croissant")).toBeVisible();
    await expectAxeClean(page);

    // The card form's placeholder gives way to the frame once it is there.
    await expect(page.getByTestId("frame-loading")).toHaveCount(0);
    await expect(page.getByTestId("tokenizer-frame")).not.toHaveClass(/opacity-0/);
    const frame = page.frameLocator('[data-testid="tokenizer-frame"]');
    // The card's network, shown as its number is typed.
    await fillCard(page, "3782");
    await expect(frame.locator("#card-brand")).toHaveText("American Express");
    // An invalid number is reported beside the field, in the frame; nothing is sent.
    await fillCard(page, "4242 4242 4242 4241");
    await expect(frame.locator("#card-brand")).toHaveText("Visa");
    await clickPay(page, /^Pay \$17\.51$/);
    await expect(frame.locator("#card-number-error")).toHaveText(/not valid/);
    await expect(frame.getByLabel("Card number")).toBeFocused();

    // A declined card: the reason in plain words, the request still payable.
    await fillCard(page, "4000 0000 0000 0002");
    await clickPay(page, /^Pay /);
    await expect(page.getByTestId("pay-problem")).toContainText("Your card was declined");
    expect((await getRequest(request, pr.id)).status).toBe("PENDING");
    // On a phone the whole number shows (the card's network beside the label, not over the number),
    // and the frame is as tall as its form: nothing cut off at its bottom, nothing scrolled inside it.
    await page.setViewportSize({ width: 375, height: 900 });
    await expect
      .poll(() => frame.locator("#card-number").evaluate((el) => el.scrollWidth <= el.clientWidth))
      .toBe(true);
    await expect
      .poll(() => frame.locator("html").evaluate(() => document.documentElement.scrollHeight <= window.innerHeight))
      .toBe(true);
    expect(await frame.locator("html").evaluate(() => window.scrollY)).toBe(0);
    await shot(page, "pay-declined");

    await fillCard(page, "4242 4242 4242 4242");
    await page.getByLabel("E-mail for your receipt (optional)").fill("diner@example.com");
    await clickPay(page, /^Pay /);
    await expect(page.getByTestId("receipt")).toContainText("Payment received");
    await expect(page.getByTestId("receipt")).toContainText("Visa •••• 4242");
    // How to reach the business: its address, phone and e-mail.
    await expect(page.getByTestId("receipt-contact")).toContainText("125 Market St, San Francisco, CA 94103");
    await expect(page.getByTestId("receipt-contact")).toContainText("(415) 555-0124");
    await expect(page.getByTestId("receipt-contact")).toContainText("mei@example.com");
    await expect(page.getByRole("button", { name: "Print or save this receipt" })).toBeVisible();
    await expectAxeClean(page);
    await shot(page, "pay-receipt");

    const paid = await getRequest(request, pr.id);
    expect(paid).toMatchObject({ status: "PAID" });
    const charge = await (
      await request.get(`/v1/charges/${paid.charge_id}`, { headers: { authorization: isv.auth } })
    ).json();
    expect(charge).toMatchObject({
      status: "AUTHORIZED",
      amount_captured: 1751,
      card_entry_method: "MANUAL",
      billing_address: { email: "diner@example.com" },
    });

    await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).type === "charge.paid"));
    const delivered = receiver.received.find((x) => JSON.parse(x.body).type === "charge.paid")!;
    expect(verifySignature(hook.secret, delivered)).toBe(true);
    const event = JSON.parse(delivered.body);
    expect(event.data.object).toMatchObject({ id: paid.charge_id, status: "AUTHORIZED" });

    // Paid: the page says so, and the form is gone.
    await page.reload();
    await expect(page.getByTestId("receipt")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
    // A customer in California reads the time in California's zone (the server wrote UTC).
    const california = await browser.newContext({ baseURL, timezoneId: "America/Los_Angeles" });
    const there = await california.newPage();
    await there.goto(new URL(decoded!).pathname);
    await expect(there.getByTestId("receipt").locator("time")).toHaveText(/\bP[SD]T$/);
    await california.close();
  } finally {
    await receiver.close();
  }
});

test("an invoice in Spanish at 320 px is paid; viewed_at is recorded", async ({ browser, request }) => {
  const context = await browser.newContext({
    locale: "es-US",
    extraHTTPHeaders: { "accept-language": "es" },
    viewport: { width: 320, height: 800 },
  });
  const page = await context.newPage();
  const pr = await create(request, "/v1/invoice", {
    sendVia: "email",
    email_address: "cliente@example.com",
    amount: 24000,
    taxPercent: "8.25",
  });
  await page.goto(new URL(pr.payment_asset_url).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Factura de /);
  // The receipt goes where the invoice was sent, said on the page (the customer may change it).
  await expect(page.getByLabel("Correo electrónico para su recibo (opcional)")).toHaveValue("cliente@example.com");
  await expect(page.getByTestId("total")).toHaveText(/259,80\s?\$|\$\s?259[.,]80/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  // The card frame grows to its content (labels wrap at 320 px): nothing in it is cut off.
  const frameBox = page.getByTestId("tokenizer-frame");
  const inner = page.frameLocator('[data-testid="tokenizer-frame"]').locator("html");
  await expect
    .poll(async () => (await frameBox.boundingBox())!.height - (await inner.evaluate((e) => e.scrollHeight)))
    .toBeGreaterThanOrEqual(0);
  await expect(
    page.frameLocator('[data-testid="tokenizer-frame"]').getByLabel("Fecha de vencimiento (MM / AA)"),
  ).toHaveAttribute("placeholder", "MM / AA");
  await expectAxeClean(page);
  await page.screenshot({ path: "test-results/screens/pay-invoice-es-320.png", fullPage: true });
  expect((await getRequest(request, pr.id)).viewed_at).not.toBeNull();
  await fillCard(page, "5555 5555 5555 4444");
  await clickPay(page, /^Pagar /);
  await expect(page.getByTestId("receipt")).toContainText("Pago recibido");
  expect((await getRequest(request, pr.id)).status).toBe("PAID");
  await context.close();
});

test("an invoice paid by bank account (ACH): a bad routing number is marked, an empty account declined in words, a good account pays", async ({
  page,
  request,
}) => {
  const pr = await create(request, "/v1/invoice", { sendVia: "none", amount: 12_500 });
  await page.goto(new URL(pr.pay_url).pathname);
  // Card first; the customer switches to the bank account with the keyboard.
  await expect(page.frameLocator('[data-testid="tokenizer-frame"]').getByLabel("Card number")).toBeVisible();
  await page.getByRole("radio", { name: "Bank account (ACH)" }).check();
  const frame = await readyFrame(page, "bank_account");
  await frame.getByLabel("Name on the account").fill("Ana Ruiz");
  await frame.getByLabel("Routing number (9 digits)").fill("021000022");
  await frame.getByLabel("Account number").fill("000111111116");
  await frame.getByLabel("Account type").selectOption("savings");
  // The debit's authorization: what, how much, when, how to revoke; nothing is sent until it is accepted.
  await expect(page.getByTestId("ach-authorization")).toContainText(/I authorize .+ to debit \$125\.00 once/);
  await expect(page.getByTestId("ach-authorization")).toContainText("revoke");
  const shownText = await page.getByTestId("ach-authorization").textContent();
  await clickPay(page, "Pay $125.00");
  await expect(page.getByText("To pay by bank account, check the box to authorize the debit.")).toBeVisible();
  await expect(page.getByLabel("I authorize this debit")).toBeFocused();
  await expect(page.getByLabel("I authorize this debit")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("I authorize this debit").check();
  await clickPay(page, "Pay $125.00");
  await expect(frame.getByText("This routing number is not valid")).toBeVisible();
  await expect(frame.getByLabel("Routing number (9 digits)")).toHaveAttribute("aria-invalid", "true");
  await expect(frame.getByLabel("Routing number (9 digits)")).toBeFocused();
  expect((await getRequest(request, pr.id)).status).toBe("PENDING");
  await shot(page, "pay-bank-invalid");

  // The sandbox's insufficient-funds account: declined, said in words (never why: a stolen account
  // number's balance is not the payer's to learn), still payable.
  await frame.getByLabel("Routing number (9 digits)").fill("021000021");
  await clickPay(page, "Pay $125.00");
  await expect(page.getByTestId("pay-problem")).toContainText("Your bank declined the payment");
  expect((await getRequest(request, pr.id)).status).toBe("PENDING");

  await frame.getByLabel("Account number").fill("000123456789");
  await clickPay(page, "Pay $125.00");
  await expect(page.getByTestId("receipt")).toContainText("JPMorgan Chase •••• 6789");
  // Not received yet: a bank debit is processing until it clears.
  await expect(page.getByRole("heading", { name: "Payment processing" })).toBeVisible();
  await expect(page.getByTestId("receipt")).toContainText("it takes up to 3 business days");
  await expectAxeClean(page);
  await shot(page, "pay-bank-paid");
  const paid = await getRequest(request, pr.id);
  const charge = await (
    await request.get(`/v1/charges/${paid.charge_id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(charge).toMatchObject({
    status: "AUTHORIZED",
    payment_method: "ach",
    ach: {
      last4: "6789",
      account_type: "savings",
      authorization: { version: "2026-11-24", locale: "en", ip_address: "127.0.0.1" },
    },
    fee: 88,
  });
  // Kept on the charge: the words the payer saw.
  expect(charge.ach.authorization.text).toBe(shownText);
});

test("a manual (virtual terminal) page is paid; a canceled request is no longer payable", async ({ page, request }) => {
  const pr = await create(request, "/v1/manual", { amount: 4200, description: "Phone order 1042" });
  await page.goto(new URL(pr.payment_asset_url).pathname);
  // Words for the merchant's staff, the heading following the method chosen.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Take a payment for Golden Gate Noodles");
  // Addressed to the staff member keying it in, not to a customer.
  await expect(page.getByText(/^The card or bank details you key in go straight to our payment service/)).toBeVisible();
  await expect(page.getByText(/^Your card or bank details/)).toHaveCount(0);
  await expect(
    page.getByText("For the staff of Golden Gate Noodles: type the details the customer gives you."),
  ).toBeVisible();
  await expect(page.getByTestId("staff-heading")).toHaveText("Enter the customer's card");
  await page.getByRole("radio", { name: "Bank account (ACH)" }).check();
  await expect(page.getByTestId("staff-heading")).toHaveText("Enter the customer's bank account");
  await page.getByRole("radio", { name: "Card" }).check();
  await expect(page.getByLabel("The customer's e-mail for the receipt (optional)")).toBeVisible();
  await expect(page.getByText("Phone order 1042")).toBeVisible();
  // The business leads the header; the ISV is named in the footer.
  await expect(page.getByTestId("brand-name")).toHaveText("Golden Gate Noodles");
  await expect(page.getByText("Payments by Harbor POS")).toBeVisible();
  await shot(page, "pay-manual-staff");
  await fillCard(page, "3782 822463 10005", "01 / 31", "1234");
  await clickPay(page, "Charge $42.00");
  await expect(page.getByTestId("receipt")).toContainText("American Express •••• 0005");

  const canceled = await create(request, "/v1/scan_to_pay", { amount: 999 });
  await request.post(`/v1/payment_requests/${canceled.id}/cancel`, { headers: { authorization: isv.auth } });
  await page.goto(new URL(canceled.pay_url).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment request from Golden Gate Noodles");
  await expect(page.getByTestId("not-payable")).toContainText("This payment request is no longer payable");
  await expect(page.getByTestId("not-payable")).toContainText("canceled it");
  await expectAxeClean(page);
  await shot(page, "pay-not-payable");
});

test("terminal: the progress page follows the terminal live; another request times out and is paid by phone", async ({
  page,
  request,
}) => {
  const pr = await create(request, "/v1/terminal", {
    terminal_id: merchant.terminalId,
    amount: 2500,
    tip: 300,
    debit: false,
  });
  await page.goto(new URL(pr.payment_asset_url).pathname);
  await expect(page.getByTestId("terminal-waiting")).toContainText("Waiting for the card on the terminal");
  await expectAxeClean(page);
  // A debit card is declined at the terminal: the page offers the phone at once.
  await request.post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
    headers: { authorization: isv.auth },
    data: { card_entry_method: "SWIPE", card_number: "4000056655665556" },
  });
  await expect(page.getByTestId("terminal-fallback")).toContainText("does not accept debit cards");
  // Then the customer taps a credit card on the terminal after all: the page shows the receipt by itself.
  const tapped = await request.post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
    headers: { authorization: isv.auth },
    data: { card_entry_method: "CHIP" },
  });
  expect(tapped.status()).toBe(200);
  await expect(page.getByTestId("receipt")).toContainText("Payment received", { timeout: 10_000 });

  // Another request: no card comes; after the terminal's wait the page offers the phone (a QR of pay_url).
  const second = await create(request, "/v1/terminal", { terminal_id: merchant.terminalId, amount: 1500 });
  await page.goto(new URL(second.payment_asset_url).pathname);
  await expect(page.getByTestId("terminal-fallback")).toContainText("No card was read on the terminal", {
    timeout: 15_000,
  });
  const qr = page.getByRole("img", { name: "QR code that opens this payment page" });
  await expect(qr).toBeVisible();
  const src = await qr.getAttribute("src");
  const png = PNG.sync.read(Buffer.from(await (await request.get(src!)).body()));
  expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(second.pay_url);
  await expectAxeClean(page);
  await shot(page, "pay-terminal-fallback");
  await fillCard(page, "4242424242424242");
  await clickPay(page, "Pay $15.00");
  await expect(page.getByTestId("receipt")).toBeVisible();
  // The same request can never be paid twice: the terminal now has nothing to take.
  const late = await request.post(`/v1/test_helpers/terminals/${merchant.terminalId}/present_card`, {
    headers: { authorization: isv.auth },
    data: { card_entry_method: "CHIP" },
  });
  expect(late.status()).toBe(409);
  expect((await getRequest(request, second.id)).status).toBe("PAID");
});

test("an unknown payment link says so, in the service's shell, with a 404", async ({ page }) => {
  const response = await page.goto("/pay/pr_0000000000000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment not found");
  await expectAxeClean(page);
});

test("a request locked after 5 declined attempts (card testing) says it is paused; unlocked, it takes the card again", async ({
  page,
  browser,
  request,
}) => {
  const pr = await create(request, "/v1/scan_to_pay", { amount: 1_250 });
  for (const number of [
    "4000000000000002",
    "4000000000009995",
    "4000000000009987",
    "4000000000009979",
    "4000000000000002",
  ]) {
    const token = await (
      await request.post("/v1/tokens", {
        headers: { authorization: `Bearer ${merchant.publishableKey}` },
        data: { card: { number, exp_month: 12, exp_year: 2034, cvc: "123" } },
      })
    ).json();
    const paid = await (await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } })).json();
    // The anonymous answer never says lost or stolen.
    expect(paid.charge.failure_reason).toBe("card_declined");
  }
  await page.goto(`/pay/${pr.id}`);
  await expect(page.getByTestId("locked")).toContainText("This payment is paused");
  await expect(page.getByTestId("locked")).toContainText("Contact");
  await expect(page.locator('[data-testid="tokenizer-frame"]')).toHaveCount(0);
  await expectAxeClean(page);
  await shot(page, "pay-locked");
  const spanish = await browser.newContext({ locale: "es-US", extraHTTPHeaders: { "accept-language": "es" } });
  const es = await spanish.newPage();
  await es.goto(`/pay/${pr.id}`);
  await expect(es.getByTestId("locked")).toContainText("Este pago está en pausa");
  await shot(es, "pay-locked-es");
  await spanish.close();

  // The merchant's ISV unlocks it: the open page comes back with the card form, by itself.
  await page.setViewportSize({ width: 1280, height: 900 });
  const unlocked = await request.post(`/v1/payment_requests/${pr.id}/unlock`, { headers: { authorization: isv.auth } });
  expect(unlocked.status()).toBe(200);
  await expect(page.locator('[data-testid="tokenizer-frame"]')).toBeVisible({ timeout: 15_000 });
  await fillCard(page, "4242 4242 4242 4242");
  await clickPay(page, /^Pay /);
  await expect(page.getByTestId("receipt")).toBeVisible();
});

test("the card frame talks only to the page that asked for it, and only the service's pages may frame it", async ({
  page,
  request,
}) => {
  const pr = await create(request, "/v1/scan_to_pay", { amount: 995 });
  await page.goto(`/pay/${pr.id}`);
  const frame = page.locator('[data-testid="tokenizer-frame"]');
  await expect(frame).toBeVisible();
  const src = new URL((await frame.getAttribute("src"))!);
  const pageOrigin = new URL(page.url()).origin;
  expect(src.searchParams.get("origin")).toBe(pageOrigin);

  // The frame lives on an origin of its own (by default on loopback: the other loopback name), so
  // the page, or a script that got into it, cannot read the card number out of it.
  expect(src.origin).not.toBe(pageOrigin);
  expect(src.origin).toBe(`http://localhost:${new URL(pageOrigin).port}`);
  await expect(page.frameLocator('[data-testid="tokenizer-frame"]').getByLabel("Card number")).toBeVisible();
  const readable = await page.evaluate(() => {
    const el = document.querySelector<HTMLIFrameElement>('[data-testid="tokenizer-frame"]')!;
    let document_: string;
    try {
      document_ = el.contentDocument === null ? "closed" : "open";
    } catch {
      document_ = "closed";
    }
    let inputs: string;
    try {
      inputs = String(el.contentWindow!.document.querySelectorAll("input").length);
    } catch {
      inputs = "denied";
    }
    return { document_, inputs };
  });
  expect(readable).toEqual({ document_: "closed", inputs: "denied" });
  // Pages are not served on the frame's origin (a page there would share it).
  expect((await request.get(`${src.origin}/pay/${pr.id}`)).status()).toBe(404);

  // The frame names who may frame it; an unknown page gets no frame at all; the service's origin does not serve it.
  const frameUrl = (origin: string) =>
    `${src.origin}/tokenizer/card?key=${encodeURIComponent(merchant.publishableKey)}&locale=en&origin=${encodeURIComponent(origin)}`;
  const served = await request.get(frameUrl(pageOrigin));
  expect(served.status()).toBe(200);
  expect(served.headers()["content-security-policy"]).toContain(`frame-ancestors ${pageOrigin};`);
  expect((await request.get(frameUrl("https://evil.example"))).status()).toBe(400);
  expect((await request.get(frameUrl(pageOrigin).replace(src.origin, pageOrigin))).status()).toBe(404);

  // Paying through it works.
  await fillCard(page, "4242 4242 4242 4242", "12 / 34", "987");
  await clickPay(page, /^Pay /);
  await expect(page.getByTestId("receipt")).toContainText("Visa •••• 4242");
});

test("a pay page answers only on its own ISV's hosts: another ISV's custom domain does not show it", async ({
  request,
}) => {
  const stamp = Date.now();
  const ownDomain = `pay-${stamp}.harbor.example`;
  const otherDomain = `pay-${stamp}.other.example`;
  const owner = createIsvWithCli("Domain Harbor POS");
  const other = createIsvWithCli("Other Domain POS");
  const own = await approvedMerchant(request, owner);
  for (const [who, domain] of [
    [owner, ownDomain],
    [other, otherDomain],
  ] as const) {
    await setAccount(request, who, { defaults: { custom_domain: domain } });
    const verified = await request.post("/v1/test_helpers/account/custom_domain/verify", {
      headers: { authorization: who.auth },
    });
    expect(verified.status()).toBe(200);
  }
  const pr = await (
    await request.post("/v1/scan_to_pay", {
      headers: { authorization: owner.auth },
      data: { merchant_id: own.id, amount: 4_321 },
    })
  ).json();
  expect(pr.pay_url).toBe(`https://${ownDomain}/pay/${pr.id}`);
  const onOwn = await (await request.get(`/pay/${pr.id}`, { headers: { host: ownDomain } })).text();
  expect(onOwn).toContain("$43.21");
  const foreign = await request.get(`/pay/${pr.id}`, { headers: { host: otherDomain } });
  expect(foreign.status()).toBe(404);
  const onForeign = await foreign.text();
  expect(onForeign).toContain("Payment not found");
  // On the host's brand: the domain is the other ISV's.
  expect(onForeign).toContain("Other Domain POS");
  expect(onForeign).not.toContain("$43.21");
  // The service's own host still shows it.
  expect(await (await request.get(`/pay/${pr.id}`)).text()).toContain("$43.21");
});

test("the ISV's dashboard lists the merchant's payments, refunds one, and shows its settlement (English and Spanish)", async ({
  page,
  request,
}) => {
  const pr = await create(request, "/v1/scan_to_pay", { amount: 2599 });
  const token = await (
    await request.post("/v1/tokens", {
      headers: {
        authorization: `Bearer ${(await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json()).payment.tokenizer_publishable_key}`,
      },
      data: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  const paid = await (await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } })).json();
  const chargeId = paid.charge.id;

  await signIn(page, isv);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payments`);
  // A payment request made from the dashboard: an invoice e-mailed to the customer; listed at once.
  await page.getByLabel("Amount (USD)").fill("12,5x");
  await page.getByRole("button", { name: "Create the request" }).click();
  await expect(page.locator("#request-error")).toHaveText("Enter an amount in dollars, for example 25 or 12.50.");
  await page.getByLabel("Amount (USD)").fill("12.50");
  await page.getByLabel("What it is for").fill("Catering deposit");
  await page.getByLabel("Customer's e-mail").fill("diner@example.com");
  await page.getByRole("button", { name: "Create the request" }).click();
  await expect(page.getByTestId("request-made")).toHaveAttribute("href", /\/pay\/pr_/);
  const made = (await page.getByTestId("request-made").getAttribute("href"))!.split("/pay/")[1]!;
  const madeRow = page.locator(`tr[data-request="${made}"]`);
  await expect(madeRow).toContainText("Invoice (pay link)");
  await expect(madeRow).toContainText("$12.50");
  await expect(madeRow).toContainText("Waiting for payment");
  const viaApi = await (
    await request.get(`/v1/payment_requests/${made}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(viaApi).toMatchObject({
    payment_type: "INVOICE",
    amount: 1250,
    status: "PENDING",
    description: "Catering deposit",
  });
  await shot(page, "dashboard-request-payment");
  const row = page.locator(`tr[data-charge="${chargeId}"]`);
  await expect(row).toContainText("$25.99");
  await expect(row).toContainText("Visa •••• 4242");
  await expect(row).toContainText("Paid");
  await expect(row).toContainText("$1.05"); // 2.90 % of 25.99 = 0.7537 + 0.30 → $1.05
  await expectAxeClean(page);

  // The payment's own page: its facts, and a refund that asks how much and why, then confirms.
  await row.getByRole("link", { name: /^Details of the payment of \$25\.99 on / }).click();
  await expect(page.getByRole("heading", { name: "Payment of $25.99" })).toBeVisible();
  await expect(page.getByTestId("charge-facts")).toContainText("Visa •••• 4242");
  await expect(page.getByTestId("charge-facts")).toContainText("$1.05");
  // The ISV sees what the payment cost and its margin (the API's figures); the merchant never does.
  const asIsv = await (await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })).json();
  const usd = (cents: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
  await expect(page.getByTestId("charge-facts")).toContainText(`Costs${usd(asIsv.costs)}`);
  await expect(page.getByTestId("charge-facts")).toContainText(`Margin${usd(asIsv.margin)}`);
  const amount = page.getByLabel("Amount to refund (USD)");
  // Nothing prefilled: the merchant says how much.
  await expect(amount).toHaveValue("");
  await expect(page.getByText("Up to $25.99.")).toBeVisible();
  await amount.fill("30.00");
  await page.getByRole("button", { name: "Review the refund" }).click();
  await expect(page.locator("#refund-error")).toHaveText("That is more than what is left to refund ($25.99).");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await amount.fill("5");
  await page.getByLabel("Reason").selectOption("duplicate");
  await page.getByRole("button", { name: "Review the refund" }).click();
  await expect(page.getByText("Refund $5.00 to Visa •••• 4242? Reason: Duplicate payment.")).toBeVisible();
  await expectAxeClean(page);
  await shot(page, "dashboard-refund-confirm");
  // Changing one's mind sends nothing.
  await page.getByRole("button", { name: "Change" }).click();
  await expect(amount).toHaveValue("5");
  let charge = await (await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })).json();
  expect(charge.amount_refunded).toBe(0);
  await page.getByRole("button", { name: "Review the refund" }).click();
  await page.getByRole("button", { name: "Refund $5.00" }).click();
  await expect(page.getByRole("status")).toHaveText("Refunded $5.00.");
  await expect(page.getByTestId("refunds")).toContainText("Duplicate payment");
  await expect(page.getByText("Up to $20.99.")).toBeVisible();
  charge = await (await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })).json();
  expect(charge).toMatchObject({ amount_refunded: 500, refunds: [{ amount: 500 }] });
  await shot(page, "dashboard-charge");
  await page.getByRole("link", { name: /^Back to / }).click();
  await expect(row.getByTestId("refunded")).toHaveText("$5.00");

  await request.post("/v1/test_helpers/settlement/run", {
    headers: { authorization: isv.auth },
    data: { merchant_id: merchant.id },
  });
  await page.reload();
  // Settled, and the $5.00 refund said beside it.
  await expect(row).toContainText("Settled · Partly refunded");
  await shot(page, "dashboard-merchant-payments");
  // Its payouts, made by the settlements (sent by the worker at once, or about to be), under Payouts:
  // the run's, and the daily job's too when the test crossed midnight UTC (CI once did), each a row.
  const payouts = (
    await (await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers: { authorization: isv.auth } })).json()
  ).data as { id: string }[];
  expect(payouts.length).toBeGreaterThanOrEqual(1);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payouts`);
  await expect(page.getByTestId("payouts").getByRole("row")).toHaveCount(payouts.length + 1);
  for (const p of payouts) await expect(page.getByTestId(`payout-${p.id}`)).toContainText(/Pending|On its way|Paid/);
  await shot(page, "dashboard-merchant-payouts");
  // On a phone the tables scroll inside their own box; the page itself does not scroll sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // The month's statement, downloaded from the dashboard as the signed-in user.
  const period = new Date().toISOString().slice(0, 7);
  await request.post("/v1/test_helpers/statements/generate", {
    headers: { authorization: isv.auth },
    data: { merchant_id: merchant.id, period },
  });
  await page.reload();
  const monthName = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(),
  );
  const [pdf] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: `PDF of ${monthName}` }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`statement-${merchant.id}-${period}.pdf`);
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: `CSV of ${monthName}` }).click(),
  ]);
  const fs = await import("node:fs");
  expect(fs.readFileSync((await csv.path())!, "utf8")).toContain(chargeId);

  await page.context().addCookies([{ name: "locale", value: "es", url: page.url() }]);
  await page.reload();
  await expect(page.getByTestId("payouts")).toContainText(/Pendiente|En camino/);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payments`);
  await expect(page.getByRole("heading", { name: "Pagos", level: 2 })).toBeVisible();
  await expect(row).toContainText("Liquidado");
  await expectAxeClean(page);
  await page.goto(`/dashboard/merchants/${merchant.id}/charges/${chargeId}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Pago de /);
  await expect(page.getByTestId("refunds")).toContainText("Pago duplicado");
  await expect(page.getByLabel("Motivo")).toBeVisible();
  await expectAxeClean(page);
  await shot(page, "dashboard-charge-es");
  // Another merchant's URL for this charge: not found.
  expect((await page.goto(`/dashboard/merchants/mer_doesnotexist/charges/${chargeId}`))?.status()).toBe(404);
});
