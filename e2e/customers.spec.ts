import { clickPay, fillCard } from "./card-frame";
import { approvedMerchant, createIsvWithCli, expectAxeClean, expectNoRawCodes, signIn } from "./helpers";
import { expect, type Page, test } from "./test";

// Customers in the merchant's home (docs/reference.md section 21): the merchant adds a customer and
// sends an invoice; the customer pays it and ticks "save this card" (never ticked for them); the
// merchant then charges the saved card again from the customer's page, and a declined saved card is
// said in words.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

test("a customer saves a card on the invoice's page, and the merchant charges it again from its home", async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Customers Gym");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await page.getByRole("navigation").getByRole("link", { name: "Customers" }).click();
  await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Add customer" }).click();
  await expect(page.locator("#customer-error")).toHaveText("Type the customer's name.");
  await page.getByLabel("Name").fill("Dana Whitfield");
  await page.getByLabel("E-mail (optional)").fill("dana@example.com");
  await page.getByRole("button", { name: "Add customer" }).click();
  await expect(page.getByRole("heading", { name: "Dana Whitfield", level: 1 })).toBeVisible();
  await expect(page.getByText("No saved card yet.", { exact: false })).toBeVisible();

  // An invoice for her, e-mailed; its link opened as she would.
  await page.getByLabel("Amount (USD)").fill("30.00");
  await page.getByRole("button", { name: "Create the request" }).click();
  const payUrl = await page.getByTestId("request-made").getAttribute("href");
  expect(payUrl).toBeTruthy();

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await customer.goto(new URL(payUrl!).pathname);
  const box = customer.getByTestId("save-method");
  await expect(box).not.toBeChecked();
  await expect(customer.getByText(/^Save this card for future payments to /)).toBeVisible();
  await fillCard(customer, "4242424242424242");
  await box.check();
  await expectAxeClean(customer);
  await shots(customer, "pay-save-card");
  await clickPay(customer, /^Pay /);
  await expect(customer.getByTestId("receipt")).toBeVisible();
  await customerContext.close();

  // Back in the home: the card is saved, and charged again.
  await page.reload();
  const saved = page.getByTestId("saved-methods");
  await expect(saved).toContainText(/Visa •••• 4242, expires 12\/20\d\d/);
  await page.getByLabel("Amount to charge (USD)").fill("25");
  await page.getByLabel("What the charge is for (optional)").fill("December classes");
  await page.getByRole("button", { name: "Charge the card" }).click();
  await expect(page.getByTestId("charge-outcome")).toHaveText("Charged $25.00 to the card ending 4242.");
  const charges = await (await request.get(`/v1/charges?merchant_id=${merchant.id}`, { headers })).json();
  expect(charges.data[0]).toMatchObject({ amount_captured: 2_500, customer: expect.stringMatching(/^cus_/) });
  expect(charges.data[0].payment_method_id).toMatch(/^pm_/);
  await expectAxeClean(page);
  await expectNoRawCodes(page);
  await shots(page, "home-customer");

  // A saved card that declines: said in words, nothing charged.
  const customerId = charges.data[0].customer as string;
  const tokenRes = await request.post("/v1/tokens", {
    headers: { authorization: `Bearer ${merchant.publishableKey}` },
    data: { card: { number: "4000000000009995", exp_month: 12, exp_year: 2034, cvc: "123" } },
  });
  await request.post("/v1/payment_methods", {
    headers,
    data: { token: (await tokenRes.json()).id, customer: customerId, consent: { accepted: true } },
  });
  await page.reload();
  await page.getByLabel("Card", { exact: true }).selectOption({ label: "Visa •••• 9995, expires 12/2034" });
  await page.getByLabel("Amount to charge (USD)").fill("10");
  await page.getByRole("button", { name: "Charge the card" }).click();
  await expect(page.getByTestId("charge-outcome")).toHaveText(
    "The card was declined: not enough funds. Nothing was charged.",
  );

  // Two subscriptions made by the ISV's software: one paid, one whose card declines (retried); the
  // merchant cancels the failing one from the customer's page.
  const methods = await (await request.get(`/v1/payment_methods?customer=${customerId}`, { headers })).json();
  const methodOf = (last4: string) => methods.data.find((m: { card: { last4: string } }) => m.card.last4 === last4).id;
  for (const [last4, name] of [
    ["4242", "Monthly membership"],
    ["9995", "Locker rental"],
  ] as const) {
    const made = await request.post("/v1/subscriptions", {
      headers,
      data: {
        customer: customerId,
        payment_method: methodOf(last4),
        items: [{ name, unit_price: last4 === "4242" ? 4_900 : 1_000, quantity: 1 }],
        interval: "month",
      },
    });
    expect(made.status()).toBe(200);
  }
  await page.reload();
  const subs = page.getByTestId("subscriptions");
  await expect(subs).toContainText("Monthly membership, $49.00 every month");
  await expect(subs).toContainText(/Active · Next payment /);
  await expect(subs).toContainText(/Payment failed, trying again · Next try /);
  await expectAxeClean(page);
  await shots(page, "home-customer-subscriptions");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Cancel the subscription: Locker rental, $10.00 every month" }).click();
  await expect(subs).toContainText(/Canceled · Ended /);
  await expect(page.getByRole("button", { name: /Cancel the subscription: Locker rental/ })).toHaveCount(0);
  await page.goto("/home/customers");
  await expect(page.getByText("1 active · 0 retrying · 0 on hold")).toBeVisible();
  await expect(page.getByTestId("subscriptions")).toContainText("Customer: Dana Whitfield");
  // Found by a part of the name, any case; a search that finds nobody says so.
  await page.getByRole("searchbox", { name: "Find a customer" }).fill("WHITF");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=WHITF/);
  await expect(page.getByTestId("customers").getByRole("listitem")).toHaveCount(1);
  await expect(page.getByTestId("customers")).toContainText("Dana Whitfield");
  await page.getByRole("searchbox", { name: "Find a customer" }).fill("nobody-here");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No customer's name or e-mail address contains “nobody-here”.")).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "home-customers-search");
  await page.goto(`/home/customers/${customerId}`);

  // In Spanish.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Tarjetas guardadas" })).toBeVisible();
  await expect(page.getByTestId("saved-methods")).toContainText("Visa •••• 4242, vence 12/20");
  await expect(page.getByTestId("subscriptions")).toContainText(/Activa · Próximo pago /);
  await expect(page.getByTestId("subscriptions")).toContainText("Locker rental, $10.00 cada mes");
  await expectNoRawCodes(page);
  await shots(page, "home-customer-es");
  await page.goto("/home/customers");
  await expect(page.getByTestId("customers")).toContainText("dana@example.com · Cliente desde el");
  await shots(page, "home-customers-es");

  // A third subscription whose card declines is moved to the good card: the retry on it pays, and
  // what it paid is recovered. A payment link besides. The ISV sees it all on its Customers page.
  const towel = await (
    await request.post("/v1/subscriptions", {
      headers,
      data: {
        customer: customerId,
        payment_method: methodOf("9995"),
        items: [{ name: "Towel service", unit_price: 500, quantity: 1 }],
        interval: "month",
      },
    })
  ).json();
  expect(towel.status).toBe("past_due");
  const moved = await request.post(`/v1/subscriptions/${towel.id}`, {
    headers,
    data: { payment_method: methodOf("4242") },
  });
  expect(await moved.json()).toMatchObject({ status: "active", recovered_amount: 500 });
  const linkMade = await request.post("/v1/payment_links", {
    headers,
    data: { merchant_id: merchant.id, amount: 1_500, description: "Day pass", max_uses: 10 },
  });
  expect(linkMade.status()).toBe(200);

  const isvContext = await browser.newContext();
  const dash = await isvContext.newPage();
  await signIn(dash, isv);
  await dash.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Customers" }).click();
  await expect(dash.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
  const figure = (id: string) => dash.getByTestId(`figure-${id}`);
  await expect(figure("active")).toHaveText("2");
  await expect(figure("monthly")).toHaveText("$54.00");
  await expect(figure("retrying")).toHaveText("0");
  await expect(figure("recovered")).toHaveText("$5.00");
  await expect(dash.getByRole("img", { name: /^Subscription payments each month/ })).toBeVisible();
  const table = dash.getByTestId("dashboard-subscriptions");
  await expect(table.getByRole("row")).toHaveCount(4);
  const towelRow = table.getByRole("row", { name: /Towel service/ });
  await expect(towelRow.getByRole("cell").nth(3)).toContainText(/^Active\s*Renews /);
  await expect(towelRow.getByRole("cell").last()).toHaveText("$5.00");
  await expect(table.getByRole("row", { name: /Locker rental/ })).toContainText("Canceled");
  await expectAxeClean(dash);
  await expectNoRawCodes(dash);
  await shots(dash, "dashboard-customers");
  await dash.getByLabel("Status").selectOption({ label: "Canceled" });
  await dash.getByRole("button", { name: "Show" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("Locker rental");
  await dash.getByRole("link", { name: "Payment links" }).click();
  await expect(dash.getByTestId("dashboard-links")).toContainText("Taking payments");
  await expect(dash.getByTestId("dashboard-links")).toContainText("0 of 10");
  await dash.getByRole("navigation", { name: "What to list" }).getByRole("link", { name: "Customers" }).click();
  await expect(dash.getByTestId("dashboard-customers")).toContainText("Dana Whitfield");
  await isvContext.addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await dash.goto("/dashboard/customers");
  await expect(dash.getByTestId("figure-recovered")).toHaveText("$5.00");
  await expect(dash.getByTestId("dashboard-subscriptions")).toContainText("Se renueva el");
  await expectNoRawCodes(dash);
  await shots(dash, "dashboard-customers-es");
  await isvContext.close();
  // The home lists 25 a page (in Spanish now): with 26 customers, the oldest is on the next page, and back.
  for (let i = 1; i <= 25; i++)
    expect(
      (
        await request.post("/v1/customers", {
          headers,
          data: { merchant_id: merchant.id, name: `Member ${String(i).padStart(2, "0")}` },
        })
      ).status(),
    ).toBe(200);
  await page.goto("/home/customers");
  const listed = page.getByTestId("customers").getByRole("listitem");
  await expect(listed).toHaveCount(25);
  await expect(listed.first()).toContainText("Member 25");
  await expect(page.getByRole("link", { name: "Clientes más recientes" })).toHaveCount(0);
  await page.getByRole("link", { name: "Clientes anteriores" }).click();
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("Dana Whitfield");
  await expect(page.getByRole("link", { name: "Clientes anteriores" })).toHaveCount(0);
  await page.getByRole("link", { name: "Clientes más recientes" }).click();
  await expect(listed).toHaveCount(25);
  await expect(listed.last()).toContainText("Member 01");
});
