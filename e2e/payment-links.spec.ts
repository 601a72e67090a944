import type { Browser } from "@playwright/test";

import { clickPay, fillCard } from "./card-frame";
import { approvedMerchant, createIsvWithCli, expectAxeClean, expectNoRawCodes } from "./helpers";
import { expect, type Page, test } from "./test";

// Payment links in the merchant's home (docs/reference.md section 21): the merchant makes a link,
// two customers pay it from its URL (the QR code's content), a link whose customer types the amount
// refuses one outside its range, and a link turned off says so; in English and Spanish.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/** A customer opens the link in their own browser and pays it by card. */
async function payThroughLink(browser: Browser, url: string) {
  const context = await browser.newContext();
  const customer = await context.newPage();
  await customer.goto(new URL(url).pathname);
  await expect(customer).toHaveURL(/\/pay\/pr_/);
  await fillCard(customer, "4242424242424242");
  await clickPay(customer, /^(Pay|Pagar) /);
  await expect(customer.getByTestId("receipt")).toBeVisible();
  await context.close();
}

test("a payment link made in the home is paid twice from its URL; a customer's own amount; a link turned off", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const isv = createIsvWithCli("Links Studio");
  const merchant = await approvedMerchant(request, isv);
  const login = await (
    await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers: { authorization: isv.auth } })
  ).json();
  await page.goto(new URL(login.url).pathname);
  await page.getByRole("navigation").getByRole("link", { name: "Take a payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment links" })).toBeVisible();

  // A fixed amount: refused empty, then made.
  await page.getByRole("button", { name: "Create the link" }).click();
  await expect(page.getByTestId("link-outcome")).toHaveText("Type an amount of at least 0.01, e.g. 25.00.");
  await page.locator("#link-amount").fill("25.00");
  await page.getByLabel("What the link is for").fill("Drop-in class");
  await page.getByRole("button", { name: "Create the link" }).click();
  await expect(page.getByTestId("link-outcome")).toHaveText("The link is ready: share it or show its QR code.");
  const links = page.getByTestId("payment-links");
  await expect(links).toContainText("Drop-in class · $25.00");
  await expect(links).toContainText("Not paid yet");
  const url = (await links.getByTestId("link-url").first().textContent())!.trim();
  expect(url).toMatch(/\/l\/plink_\w+$/);
  const qr = links.getByRole("img", { name: "QR code of the payment link Drop-in class · $25.00" });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  await expectAxeClean(page);
  await expectNoRawCodes(page);

  // Two customers pay it from its URL.
  for (let i = 0; i < 2; i++) await payThroughLink(browser, url);
  await page.reload();
  await expect(links).toContainText("Paid 2 times");
  await shots(page, "home-payment-links");

  // The customer types the amount: outside the range the page says so; inside, they pay it.
  await page.getByLabel("The customer types the amount").check();
  await page.getByLabel("Least they can pay (USD)").fill("5");
  await page.getByLabel("Most they can pay (USD)").fill("100");
  await page.getByLabel("What the link is for").fill("Tip the teacher");
  await page.getByRole("button", { name: "Create the link" }).click();
  await expect(links).toContainText("Tip the teacher · Customer chooses, $5.00 to $100.00");
  const chooseUrl = (await links.getByTestId("link-url").first().textContent())!.trim();
  const visitor = await browser.newContext();
  const form = await visitor.newPage();
  await form.goto(new URL(chooseUrl).pathname);
  await expect(form.getByRole("heading", { name: "Enter the amount to pay" })).toBeVisible();
  await form.getByLabel("Amount (USD)").fill("500");
  await form.getByRole("button", { name: "Continue to payment" }).click();
  await expect(form.getByRole("alert")).toHaveText("Enter an amount between $5.00 and $100.00");
  await expectAxeClean(form);
  await shots(form, "payment-link-amount");
  await visitor.close();
  // In Spanish, a comma for the decimals: the pay page asks for exactly that amount.
  const spanish = await browser.newContext({ locale: "es-ES" });
  const chooser = await spanish.newPage();
  await chooser.goto(new URL(chooseUrl).pathname);
  await chooser.getByLabel("Importe (USD)").fill("12,50");
  await chooser.getByRole("button", { name: "Continuar al pago" }).click();
  await expect(chooser).toHaveURL(/\/pay\/pr_/);
  await expect(chooser.getByRole("button", { name: /^Pagar .*12\.50/ })).toBeVisible();
  await spanish.close();

  // Turned off: its URL says it no longer takes payments.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Turn off: Drop-in class · $25.00" }).click();
  await expect(links).toContainText("Off · Paid 2 times");
  const late = await browser.newContext({ locale: "es-ES" });
  const closed = await late.newPage();
  await closed.goto(new URL(url).pathname);
  await expect(closed.getByRole("heading", { name: "Este enlace ya no acepta pagos" })).toBeVisible();
  await expectAxeClean(closed);
  await shots(closed, "payment-link-off-es");
  await late.close();

  // The home in Spanish.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Enlaces de pago" })).toBeVisible();
  await expect(links).toContainText("Desactivado · Pagado 2 veces");
  await expect(links).toContainText("El cliente elige, de $5.00 a $100.00");
  await expectNoRawCodes(page);
  await shots(page, "home-payment-links-es");
});
