import { application, createIsvWithCli, expectAxeClean, licencePng, merchantWithLink, setAccount } from "./helpers";
import { expect, type Page, test } from "./test";
import { fillBusiness, fillOwner, wordsFor } from "./wizard-steps";

const app = application();

/** The page at a phone's and a desktop's width, for the run's screenshots (test-results/screens). */
async function shots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const save = (page: Page) => page.getByRole("button", { name: "Save and continue" }).click();

test("an ISV's merchant completes every step, signs, submits and lands on the return URL", async ({
  page,
  request,
  baseURL,
}) => {
  // Every step, two screenshots of each and an accessibility scan: 35-45 s alone on this machine,
  // so the default 60 s leaves too little room when the other worker's journeys run beside it.
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Noodle POS");
  const { merchant, path } = await merchantWithLink(request, isv, {
    link: { return_url: `${baseURL}/?from=onboarding`, state: "abc-123" },
  });
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  // The phone the ISV gave at creation is offered for the legal phone.
  await expect(page.getByLabel("Business phone number", { exact: true })).toHaveValue("(415) 555-0123");
  await shots(page, "wizard-business");
  await expectAxeClean(page);

  // Validation: submitting empty shows every error, tied to its field.
  await save(page);
  await expect(page.getByText("Some answers need attention")).toBeVisible();
  await expect(page.getByLabel("Legal business name")).toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);

  await fillBusiness(page);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await shots(page, "wizard-owners");
  await expectAxeClean(page);
  // The main contact is offered as owner one (its name split, its e-mail), then typed over as needed.
  const [contactFirst, ...contactRest] = app.main_contact_person.name.split(" ");
  await page.getByRole("button", { name: `Owner 1 is ${app.main_contact_person.name}, the main contact` }).click();
  const ownerOne = page.getByRole("group", { name: "Owner 1", exact: true });
  await expect(ownerOne.getByLabel("First name", { exact: true })).toHaveValue(contactFirst);
  await expect(ownerOne.getByLabel("Last name")).toHaveValue(contactRest.join(" "));
  await expect(ownerOne.getByLabel("Email")).toHaveValue(app.main_contact_person.email);
  await expect(ownerOne.getByLabel("Job title")).toBeFocused();
  await expect(page.getByTestId("owner-from-contact")).toHaveCount(0);
  await fillOwner(page, 1, app.owner_one);
  await page.getByRole("button", { name: "Add an owner" }).click();
  await fillOwner(page, 2, app.owner_two);
  await expect(page.getByText("Total ownership: 100%")).toBeVisible();
  await save(page);

  await expect(page).toHaveURL(/\/onboarding\/bank$/);
  await shots(page, "wizard-bank");
  await expectAxeClean(page);
  await page.getByLabel("Account holder name").fill(app.bank_account.account_holder_name);
  await page.getByLabel("Account number", { exact: true }).fill(app.bank_account.account_number);
  await page.getByLabel("Confirm account number").fill(app.bank_account.account_number);
  await page.getByLabel("Bank name").fill(app.bank_account.bank_name);
  await page.getByLabel("Routing number").fill("021000022");
  await expect(page.getByText("doesn't pass the bank's check")).toBeVisible();
  // Saved as it is: the field says it once (the live line gives way to the field's message).
  await save(page);
  await expect(page.getByLabel("Routing number")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/pass the bank's check/)).toHaveCount(1);
  // A known routing number names its bank (the Federal Reserve's directory) and fills an empty bank name.
  await page.getByLabel("Bank name").fill("");
  await page.getByLabel("Routing number").fill("011001726");
  await expect(page.getByText("Routing number looks right: The First National Bank of Ipswich.")).toBeVisible();
  await expect(page.getByLabel("Bank name")).toHaveValue("The First National Bank of Ipswich");
  await page.getByLabel("Bank name").fill("");
  await page.getByLabel("Routing number").fill(app.bank_account.routing_number);
  await expect(page.getByText("Routing number looks right: JPMorgan Chase.")).toBeVisible();
  await expect(page.getByLabel("Bank name")).toHaveValue("JPMorgan Chase");
  await page.getByLabel("Bank name").fill(app.bank_account.bank_name);
  await save(page);

  await expect(page).toHaveURL(/\/onboarding\/product$/);
  await shots(page, "wizard-product");
  await expectAxeClean(page);
  await page.getByLabel("What do you sell?").fill(app.main_product.description);
  await page.getByLabel("Website").fill(app.main_product.website);
  // One search over every industry, in the merchant's words: "coffee" is a restaurant.
  await page.getByLabel("What does your business do?").fill("zzqx");
  await expect(page.getByText("Nothing found for that.")).toBeVisible();
  await page.getByLabel("What does your business do?").fill("coffee");
  const fits = page.getByRole("list", { name: "Industries that fit" }).getByRole("button");
  await expect(fits.first()).toHaveText("RestaurantsRestaurants");
  await expect(fits.nth(1)).toHaveText(/^Fast Food/);
  await fits.first().click();
  await expect(page.getByLabel("Category", { exact: true })).toHaveValue("Restaurants");
  await expect(page.getByLabel("Subcategory")).toHaveValue("Restaurants");
  await expect(page.getByLabel("Subcategory")).toBeFocused();
  await expect(page.getByLabel("What does your business do?")).toHaveValue("");
  await save(page);

  await expect(page).toHaveURL(/\/onboarding\/sales$/);
  await shots(page, "wizard-sales");
  await expectAxeClean(page);
  const sales = app.current_sales;
  // Nothing typed yet: the total is said, not marked; zero where zero is the usual answer.
  await expect(page.getByTestId("sales-total")).toHaveText("Total: 0% of 100%");
  await expect(page.getByTestId("sales-total")).not.toHaveClass(/text-danger/);
  await expect(page.getByLabel("Mail or phone order (%)")).toHaveValue("0");
  await expect(page.getByLabel("Average monthly American Express sales ($)")).toHaveValue("0");
  await page.getByLabel("Average monthly card sales ($)").fill(sales.average_monthly_in_credit_card);
  await page.getByLabel("Average sale amount ($)").fill(sales.average_ticket_value);
  await page.getByLabel("Largest single sale so far ($)").fill(sales.highest_amount_to_date);
  await page.getByLabel("Average monthly American Express sales ($)").fill(sales.average_amex_monthly_sales);
  await page.getByLabel("Average American Express sale amount ($)").fill(sales.average_amex_ticket_value);
  await page.getByLabel("In person, card present (%)").fill("70");
  await page.getByLabel("Online (%)").fill("20");
  await expect(page.getByText("Total: 90% of 100%")).toBeVisible();
  await expect(page.getByTestId("sales-total")).toHaveClass(/text-danger/);
  await page.getByLabel("Keyed in (%)").fill("10");
  await expect(page.getByText("Total: 100% of 100%")).toBeVisible();
  await save(page);

  await expect(page).toHaveURL(/\/onboarding\/device$/);
  await shots(page, "wizard-device");
  await expectAxeClean(page);
  // Each price says what it is; the chosen card takes the brand's colour.
  await expect(
    page.getByText(/Prices are set by .+, who supplies the terminal; it is not a monthly fee\./),
  ).toBeVisible();
  await expect(page.locator("label", { has: page.getByLabel(/PAX A920 Pro/) })).toContainText(
    "One-time price: $349.00",
  );
  const border = (name: RegExp) =>
    page.locator("label", { has: page.getByLabel(name) }).evaluate((el) => getComputedStyle(el).borderTopColor);
  const plain = await border(/PAX A920 Pro/);
  await page.getByLabel(/PAX A920 Pro/).check();
  await expect.poll(() => border(/PAX A920 Pro/)).not.toBe(plain);
  expect(await border(/Dejavoo Z11/)).toBe(plain);
  await shots(page, "wizard-device-chosen");
  // At 375 px every choice's radio is the same size, in one column (none squeezed by a long description).
  await page.setViewportSize({ width: 375, height: 900 });
  const radios = await page.getByRole("radio").evaluateAll((all) =>
    all.map((r) => {
      const box = r.getBoundingClientRect();
      return `${Math.round(box.left)} ${Math.round(box.width)}x${Math.round(box.height)}`;
    }),
  );
  expect(new Set(radios).size).toBe(1);
  await page.setViewportSize({ width: 1280, height: 720 });
  await save(page);

  await expect(page).toHaveURL(/\/onboarding\/review$/);
  await expectAxeClean(page);
  await expect(page.getByText(app.legal_business_name).first()).toBeVisible();
  await expect(page.getByText("*****6789").first()).toBeVisible();
  await expect(page.getByText("PAX A920 Pro")).toBeVisible();
  // In the words the form used: option labels, dates, money and percentages; no raw keys or values.
  const review = page.locator("main");
  await expect(review).toContainText("Limited liability company (LLC)");
  await expect(review).toContainText("June 1, 2015");
  await expect(review).toContainText("$35.00");
  await expect(review).toContainText("60 %");
  await expect(review).not.toContainText("Limited Liability (LLC)");
  await expect(review).not.toContainText("2015-06-01");
  await expect(review).not.toContainText(/[a-z]+_[a-z]+/);
  // Each address on one line, as on an envelope.
  const legal = app.legal_business_address;
  await expect(review).toContainText(`${legal.address}, ${legal.city}, ${legal.state} ${legal.zip}`);
  // The TIN and the account number (both end in 6789 here), not the account's confirmation a second time.
  expect(await page.getByText("*****6789").count()).toBe(2);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/wizard-review-${width}.png`, fullPage: true });
  }
  await page.getByRole("link", { name: "Continue to the agreement" }).click();

  await expect(page).toHaveURL(/\/onboarding\/agreement$/);
  // The steps: one row at 1280 that needs no scrolling; at 375 the last (current) one is in view.
  const chipList = page.getByRole("list", { name: "Steps" });
  const chipRows = () =>
    chipList
      .locator("li")
      .evaluateAll((items) => new Set(items.map((li) => Math.round(li.getBoundingClientRect().top))).size);
  expect(await chipRows()).toBe(1);
  expect(await chipList.evaluate((ol) => ol.scrollWidth - ol.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 375, height: 900 });
  await expect(page.locator("[aria-current=step]")).toBeInViewport({ ratio: 0.95 });
  expect(await chipRows()).toBe(1);
  await shots(page, "wizard-agreement");
  await expectAxeClean(page);
  await expect(page.getByRole("article")).toContainText("Merchant Processing Agreement");
  await expect(page.getByRole("article")).toContainText(
    /Visa, Mastercard, Discover credit: \d+\.\d\d % \+ \$\d+\.\d\d per transaction/,
  );
  await expect(page.getByRole("article")).not.toContainText(/_percent|_fixed|flat_rate/);
  // The terminal chosen, at the price the device step showed.
  await expect(page.getByRole("article")).toContainText(
    /PAX A920 Pro: a one-time price of \$349\.00, supplied and billed by /,
  );
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the agreement to read it (PDF)" }).click();
  expect((await download).suggestedFilename()).toBe(`merchant-agreement-${merchant.id}.pdf`);
  await expect(page.getByText("Signing submits your application for review.")).toBeVisible();
  await page.getByLabel("Type your full name to sign").fill("Mei Chen");
  // One action: signing submits.
  await page.getByRole("button", { name: "Sign and submit application" }).click();

  const heading = page.getByRole("heading", { name: /^Application (submitted|approved)$/ });
  await expect(heading).toBeVisible();
  // The page waits for underwriting's decision (seconds in sandbox), shows it, and only then returns
  // to the ISV with the real status: never COMPLETED for an application decided a second later.
  await expect(page.getByRole("heading", { name: "Application approved" })).toBeVisible({ timeout: 20_000 });
  // Its axe check and screenshots come once Back has brought it back (it then stays): taken now,
  // they race its redirect 2.5 s after it shows, and a screenshot mid-navigation never ends.
  await page.waitForURL((url) => url.searchParams.get("from") === "onboarding", { timeout: 15_000 });
  const returned = new URL(page.url());
  expect(Object.fromEntries(returned.searchParams)).toEqual({
    from: "onboarding",
    merchant_id: merchant.id,
    lead_onboarding_status: "APPROVED",
    state: "abc-123",
  });
  // Back from the ISV's page: the completion page stays (no bounce forward); its link still works.
  await page.goBack();
  await expect(page).toHaveURL(/\/onboarding\/complete/);
  await expect(page.getByRole("link", { name: "Continue" })).toBeVisible();
  await page.waitForTimeout(3_500);
  await expect(page).toHaveURL(/\/onboarding\/complete/);
  await expectAxeClean(page);
  await shots(page, "wizard-complete");
  // Underwriting runs after the submission: this clean application is approved and provisioned.
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json())
          .lead_onboarding_status,
      {
        timeout: 10_000,
      },
    )
    .toBe("APPROVED");
  const after = await (
    await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(after.device).toMatchObject({ catalog_id: "pax-a920", imei_status: "ACTIVE" });
});

test("in Spanish, every step through the page: the merchant signs, the page waits for the decision and returns APPROVED", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const w = wordsFor("es");
  const isv = createIsvWithCli("Fideos POS");
  const { merchant, path } = await merchantWithLink(request, isv, {
    link: { return_url: `${baseURL}/?from=onboarding`, state: "es-all" },
  });
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  const next = () => page.getByRole("button", { name: w("Save and continue") }).click();
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  await fillBusiness(page, w);
  await shots(page, "wizard-business-es");
  await next();

  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await fillOwner(page, 1, { ...app.owner_one, ownership_percentage: "100" }, w);
  await shots(page, "wizard-owners-es");
  await next();

  await expect(page).toHaveURL(/\/onboarding\/bank$/);
  await page.getByLabel(w("Account holder name")).fill(app.bank_account.account_holder_name);
  await page.getByLabel(w("Account number"), { exact: true }).fill(app.bank_account.account_number);
  await page.getByLabel(w("Confirm account number")).fill(app.bank_account.account_number);
  await page.getByLabel(w("Routing number")).fill(app.bank_account.routing_number);
  await page.getByLabel(w("Bank name")).fill(app.bank_account.bank_name);
  await next();

  await expect(page).toHaveURL(/\/onboarding\/product$/);
  await page.getByLabel(w("What do you sell?")).fill("Fideos y café");
  await page.getByLabel(w("Website")).fill(app.main_product.website);
  // The merchant's own word, in Spanish: a café is a restaurant; the value saved is the reference's.
  await page.getByLabel(w("What does your business do?")).fill("cafetería");
  await page
    .getByRole("list", { name: w("Industries that fit") })
    .getByRole("button")
    .first()
    .click();
  await expect(page.getByLabel(w("Category"), { exact: true })).toHaveValue("Restaurants");
  await expectAxeClean(page);
  await shots(page, "wizard-product-es");
  await next();

  await expect(page).toHaveURL(/\/onboarding\/sales$/);
  const sales = app.current_sales;
  await page.getByLabel(w("Average monthly card sales ($)")).fill(sales.average_monthly_in_credit_card);
  await page.getByLabel(w("Average sale amount ($)")).fill(sales.average_ticket_value);
  await page.getByLabel(w("Largest single sale so far ($)")).fill(sales.highest_amount_to_date);
  await page.getByLabel(w("Average monthly American Express sales ($)")).fill(sales.average_amex_monthly_sales);
  await page.getByLabel(w("Average American Express sale amount ($)")).fill(sales.average_amex_ticket_value);
  await page.getByLabel(w("In person, card present (%)")).fill("80");
  await page.getByLabel(w("Online (%)")).fill("20");
  await page.getByLabel(w("Keyed in (%)")).fill("0");
  await expect(page.getByTestId("sales-total")).toHaveText("Total: 100 % de 100 %");
  await next();

  await expect(page).toHaveURL(/\/onboarding\/device$/);
  await page.getByLabel(/PAX A920 Pro/).check();
  await shots(page, "wizard-device-es");
  await next();

  await expect(page).toHaveURL(/\/onboarding\/review$/);
  await expectAxeClean(page);
  await shots(page, "wizard-review-es");
  await page.getByRole("link", { name: w("Continue to the agreement") }).click();

  await expect(page).toHaveURL(/\/onboarding\/agreement$/);
  await page.getByLabel(w("Type your full name to sign")).fill("Mei Chen");
  await page.getByRole("button", { name: w("Sign and submit application") }).click();
  await expect(page.getByRole("heading", { name: w("Application approved") })).toBeVisible({ timeout: 20_000 });
  await page.waitForURL((url) => url.searchParams.get("from") === "onboarding", { timeout: 15_000 });
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
    from: "onboarding",
    merchant_id: merchant.id,
    lead_onboarding_status: "APPROVED",
    state: "es-all",
  });
});

test("a phone-only merchant's blank form: every missing field is marked, the address and contact included, and the first takes the focus", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Blank Form POS");
  const { path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  // An ISV without a logo of its own: its monogram, in its colour, not the platform's placeholder.
  await expect(page.getByTestId("brand-monogram")).toHaveText("B");
  await expect(page.locator("header img")).toHaveCount(0);
  await save(page);
  await expect(page.getByText("Some answers need attention")).toBeVisible();
  await expect(page.getByLabel("Legal business name")).toBeFocused();
  const legal = page.getByRole("group", { name: "Legal business address" });
  for (const label of ["Street address", "City", "State", "ZIP code"]) {
    await expect(legal.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
    await expect(legal.getByText(`${label}: this is required.`)).toBeVisible();
  }
  for (const label of ["Contact name", "Contact email"])
    await expect(page.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
  // Every message on the page belongs to a field: nothing is said about a field the page does not show.
  const alerts = await page.locator("form [role=alert]").allTextContents();
  expect(alerts.filter((a) => !a.startsWith("Some answers")).every((a) => a.endsWith("this is required."))).toBe(true);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: "test-results/screens/wizard-blank-business-375.png", fullPage: true });

  // Filled using only what the page says, the step saves; the owners' empty home address is marked too.
  await fillBusiness(page);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  const owner = page.getByRole("group", { name: "Owner 1", exact: true });
  await owner.getByLabel("First name").fill("Mei");
  await save(page);
  await expect(owner.getByLabel("Last name")).toBeFocused();
  for (const label of ["Street address", "City", "State", "ZIP code"])
    await expect(owner.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);
});

test("a business established in the future and an owner under 18 are refused in the browser, in words, in English and Spanish; nothing is saved", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Dates POS");
  const { merchant, path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await fillBusiness(page);
  const now = new Date();
  const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
  await page
    .getByLabel("Date the business was established")
    .fill(iso(now.getUTCFullYear() + 1, now.getUTCMonth(), now.getUTCDate()));
  const legalAddress = page.getByRole("group", { name: "Legal business address" });
  // The state is chosen from the list (no code to guess), by name with its code.
  await expect(legalAddress.getByLabel("State").locator("option", { hasText: "California (CA)" })).toHaveAttribute(
    "value",
    "CA",
  );
  await expect(legalAddress.getByLabel("State").locator("option")).toHaveCount(57);
  await save(page);
  await expect(page.getByText("The business cannot be established in the future.")).toBeVisible();
  await expect(page.getByLabel("Date the business was established")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  const read = async () =>
    (await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json())
      .merchant;
  expect((await read()).business_established_date).toBeNull();
  await page.getByLabel("Date the business was established").fill(app.business_established_date);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);

  await fillOwner(page, 1, { ...app.owner_one, date_of_birth: iso(now.getUTCFullYear() - 17, now.getUTCMonth(), 1) });
  await save(page);
  const owner = page.getByRole("group", { name: "Owner 1", exact: true });
  await expect(owner.getByText("Every owner must be at least 18 years old.")).toBeVisible();
  await expect(owner.getByLabel("Date of birth")).toHaveAttribute("aria-invalid", "true");
  await shots(page, "wizard-owner-under-18");
  expect((await read()).owner_one).toBeNull();
  // In Spanish, the same rule in the reader's words.
  await page.getByLabel("Language").selectOption("es");
  await page.getByRole("button", { name: "Guardar y continuar" }).click();
  await expect(page.getByText("Todos los propietarios deben tener al menos 18 años.")).toBeVisible();
  await expectAxeClean(page);
});

test("the completion page sends the browser only to the URL the server built, never to a look-alike ?to=", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Redirect POS");
  const { merchant, path } = await merchantWithLink(request, isv, { link: { return_url: "https://acme.example" } });
  const visited: string[] = [];
  await page.route("https://acme.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>back at the ISV</h1>" }),
  );
  await page.route("https://attacker.test/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>phished</h1>" }),
  );
  page.on("framenavigated", (frame) => visited.push(frame.url()));
  await page.goto(path);
  await page.goto(`/onboarding/complete?to=${encodeURIComponent("https://acme.example@attacker.test/")}`);
  const link = page.getByRole("link", { name: "Continue" });
  const href = new URL((await link.getAttribute("href"))!);
  expect(href.origin).toBe("https://acme.example");
  expect(Object.fromEntries(href.searchParams)).toEqual({
    merchant_id: merchant.id,
    lead_onboarding_status: "IN_PROGRESS",
  });
  // After the pause the browser goes there, and never to the attacker's host.
  await page.waitForURL((url) => url.origin === "https://acme.example", { timeout: 10_000 });
  expect(visited.map((u) => new URL(u).hostname)).not.toContain("attacker.test");
});

test("after an information request the completion page keeps the brand, says what is needed, and returns with the status it shows", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Asking POS");
  // Sandbox TIN 111111111: underwriting cannot verify the tax ID and asks for it again.
  const { merchant, path } = await merchantWithLink(request, isv, {
    merchant: { ...app, tin: "111111111" },
    link: { return_url: "https://acme.example/back" },
  });
  await page.route("https://acme.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<h1>back at the ISV</h1>" }),
  );
  await page.goto(path);
  const token = (await page.context().cookies()).find((c) => c.name === "onboarding_session")!.value;
  const session = { authorization: `Bearer ${token}` };
  await request.patch("/v1/onboarding/session", { headers: session, data: { device: { catalog_id: "pax-a920" } } });
  await request.post("/v1/onboarding/session/agreement", { headers: session, data: { name: "Mei Chen" } });
  expect((await request.post("/v1/onboarding/session/submit", { headers: session })).status()).toBe(200);
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json())
          .lead_onboarding_status,
      { timeout: 15_000 },
    )
    .toBe("IN_PROGRESS");

  // The portal's fresh link superseded the wizard's: the page still knows whose it is.
  await page.goto("/onboarding/complete");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A few more details are needed");
  await expect(
    page.getByText("Asking POS needs a few more details before it can approve your application:"),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "What is needed" })).toContainText(
    "We could not verify the tax ID. Check it and enter it again.",
  );
  await expect(page.getByTestId("brand-monogram")).toHaveText("A");
  await expect(page.getByText("Merchant application")).toHaveCount(0);
  const back = page.getByRole("link", { name: "Back to Asking POS" });
  const href = new URL((await back.getAttribute("href"))!);
  expect(`${href.origin}${href.pathname}`).toBe("https://acme.example/back");
  expect(Object.fromEntries(href.searchParams)).toEqual({
    merchant_id: merchant.id,
    lead_onboarding_status: "IN_PROGRESS",
  });
  await expect(page.getByText("Give them here now, or later from the link we have e-mailed you.")).toBeVisible();
  await expectAxeClean(page);
  await shots(page, "wizard-complete-more-info");
  // No automatic redirect here: the merchant reads first, then goes back on a click.
  await page.waitForTimeout(3_500);
  await expect(page).toHaveURL(/\/onboarding\/complete$/);
  await back.click();
  await page.waitForURL((url) => url.origin === "https://acme.example");
  // Back on the page, "Give them now" opens the portal there and then, at the tax ID.
  await page.goBack();
  await page.getByRole("button", { name: "Give them now" }).click();
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  await expect(page.getByLabel("Tax ID number", { exact: true })).toHaveAccessibleDescription(
    "We could not verify the tax ID. Check it and enter it again.",
  );
});

const documentWords = {
  en: {
    sign: "Type your full name to sign",
    submit: "Sign and submit application",
    moreInfo: "A few more details are needed",
    list: "What is needed",
    answerNow: "Give them now",
    panel: "Identity document: Mei Chen",
    send: "Send document",
    approved: "Application approved",
  },
  es: {
    sign: "Escriba su nombre completo para firmar",
    submit: "Firmar y enviar la solicitud",
    moreInfo: "Necesitamos algunos datos más",
    list: "Lo que se necesita",
    answerNow: "Darlos ahora",
    panel: "Documento de identidad: Mei Chen",
    send: "Enviar documento",
    approved: "Solicitud aprobada",
  },
};
for (const locale of ["en", "es"] as const) {
  const words = documentWords[locale];
  test(`${locale}: the page after signing waits for underwriting, takes the identity document asked there, and returns APPROVED`, async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const isv = createIsvWithCli(`Asks ${locale} POS`);
    // Born 1902-01-01: the sandbox cannot confirm the owner's identity from the data and asks for a document.
    const asking = application();
    asking.owner_one.date_of_birth = "1902-01-01";
    const { merchant, path } = await merchantWithLink(request, isv, {
      merchant: asking,
      link: { return_url: `${baseURL}/?from=onboarding`, state: `doc-${locale}` },
    });
    await page.context().addCookies([{ name: "locale", value: locale, url: baseURL! }]);
    await page.goto(path);
    const token = (await page.context().cookies()).find((c) => c.name === "onboarding_session")!.value;
    await request.patch("/v1/onboarding/session", {
      headers: { authorization: `Bearer ${token}` },
      data: { device: { catalog_id: "pax-a920" } },
    });
    await page.goto("/onboarding/agreement");
    await page.getByLabel(words.sign).fill("Mei Chen");
    await page.getByRole("button", { name: words.submit }).click();

    // The page waits for the decision, then says what is asked, about whom, in the reader's language.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(words.moreInfo, { timeout: 20_000 });
    await expect(page.getByRole("list", { name: words.list })).toContainText("Mei Chen");
    await expect(page).toHaveURL(/\/onboarding\/complete/);
    await expectAxeClean(page);
    await shots(page, `wizard-complete-document-${locale}`);
    await page.getByRole("button", { name: words.answerNow }).click();

    // The portal opens at the owners, asking for the document in place; sent, it is checked.
    await expect(page).toHaveURL(/\/onboarding\/owners$/);
    const panel = page.getByRole("region", { name: words.panel });
    const licence = { name: "license.png", mimeType: "image/png", buffer: await licencePng() };
    // Chosen again until the form has it: the page may still be settling from the redirect that
    // opened it (a person chooses a file long after; the test does at once).
    await expect(async () => {
      await panel.getByTestId("document-file").setInputFiles(licence);
      await expect(panel.getByRole("button", { name: words.send })).toBeEnabled({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await panel.getByRole("button", { name: words.send }).click();
    // Checked, resubmitted by itself, approved: the page says so and returns with the real status.
    await expect(page.getByRole("heading", { name: words.approved })).toBeVisible({ timeout: 30_000 });
    await page.waitForURL((url) => url.searchParams.get("from") === "onboarding", { timeout: 15_000 });
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      from: "onboarding",
      merchant_id: merchant.id,
      lead_onboarding_status: "APPROVED",
      state: `doc-${locale}`,
    });
  });
}

test("browser Back shows a step as it was saved, and saving it again marks nothing", async ({ page, request }) => {
  const isv = createIsvWithCli("Back POS");
  const { path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await fillBusiness(page);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/onboarding\/business$/);
  await expect(page.getByLabel("Legal business name")).toHaveValue(app.legal_business_name);
  await expect(page.getByLabel("Tax ID number")).not.toHaveValue("");
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await expect(page.getByText("Some answers need attention")).toHaveCount(0);
});

test("leaving half-way and reopening the link resumes at the first incomplete step; deep links are brought back", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli();
  const { path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await fillBusiness(page);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await page.context().clearCookies();
  await page.goto("/onboarding/owners");
  await expect(page.getByRole("heading", { name: "Your session has ended" })).toBeVisible();
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await page.goto("/onboarding/agreement");
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await page.goto("/onboarding/business");
  await expect(page.getByLabel("Legal business name")).toHaveValue(app.legal_business_name);
  await expect(page.getByLabel("Tax ID number")).toHaveValue("*****6789");
});

test("the first screen says what it takes; save and finish later e-mails a new link that resumes the saved answers", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Later POS");
  const { path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await expect(page.getByTestId("before-you-start")).toContainText("It takes about 10 minutes.");
  await fillBusiness(page);
  await save(page);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  await expect(page.getByTestId("before-you-start")).toHaveCount(0);
  await page.getByRole("button", { name: "Save and finish later" }).click();
  // The contact e-mail the business step saved is offered.
  await expect(page.getByLabel("E-mail address")).toHaveValue(app.main_contact_person.email);
  await expectAxeClean(page);
  await page.getByRole("button", { name: "E-mail me a link" }).click();
  await expect(page.getByTestId("finish-later-sent")).toContainText(
    `We sent a link to ${app.main_contact_person.email}.`,
  );
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/wizard-finish-later-${width}.png`, fullPage: true });
  }
  const outbox = await (await request.get("/v1/test_helpers/outbox", { headers: { authorization: isv.auth } })).json();
  const mail = outbox.data.find((m: { kind: string }) => m.kind === "onboarding.resume_link");
  expect(mail).toMatchObject({ to: app.main_contact_person.email, sender_name: "Later POS" });
  // The session in hand ended with its link; the e-mailed link resumes where the merchant left off.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your session has ended" })).toBeVisible();
  await page.goto(new URL(/https?:\/\/\S+\/onboard\/[A-Za-z0-9]+/.exec(mail.text)![0]).pathname);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
});

test("the ISV's name, logo and colours brand the wizard (computed styles), with readable text", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Sunny POS");
  await setAccount(request, isv, {
    defaults: {
      display_name: "Sunny Payments",
      primary_color: "#fde047",
      secondary_color: "#7c3aed",
      logo: "/icon.svg",
      support: { email: "help@sunny.example" },
    },
  });
  const { path } = await merchantWithLink(request, isv);
  await page.goto(path);
  await expect(page.getByTestId("brand-name")).toHaveText("Sunny Payments");
  const header = page.locator("header");
  await expect(header).toHaveCSS("background-color", "rgb(253, 224, 71)");
  await expect(header).toHaveCSS("color", "rgb(15, 23, 42)"); // dark text on a light brand colour
  await expect(page.locator("header img")).toHaveAttribute("src", "/icon.svg");
  await expect(page.getByTestId("brand-monogram")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save and continue" })).toHaveCSS(
    "background-color",
    "rgb(253, 224, 71)",
  );
  await expect(page.locator("[aria-current=step]")).toHaveCSS("background-color", "rgb(124, 58, 237)");
  await expect(page.locator("[aria-current=step]")).toHaveCSS("color", "rgb(255, 255, 255)");
  await expect(page.getByRole("contentinfo")).toContainText("help@sunny.example");
});

test("Spanish from Accept-Language, and the switcher is remembered", async ({ browser, request, baseURL }) => {
  const isv = createIsvWithCli();
  const { path } = await merchantWithLink(request, isv);
  const context = await browser.newContext({
    baseURL,
    locale: "es-ES",
    extraHTTPHeaders: { "Accept-Language": "es-ES,es;q=0.9" },
  });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Negocio");
  await expect(page.getByLabel("Razón social")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await page.getByRole("button", { name: "Guardar y continuar" }).click();
  await expect(page.getByText("Razón social: este dato es obligatorio.")).toBeVisible();
  await expectAxeClean(page);
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Business");
  await context.close();
});

test("keyboard only: the device, review, agreement and submit steps", async ({ page, request }) => {
  const isv = createIsvWithCli();
  const { path } = await merchantWithLink(request, isv, { merchant: app, link: { allow_skip_device_selection: true } });
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/device$/);
  // Tab to the first device choice, arrow to the "own device" option, confirm with Space.
  const radios = page.getByRole("radio");
  await page.keyboard.press("Tab");
  for (let i = 0; i < 30 && !(await radios.first().evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await page.keyboard.press("ArrowUp"); // arrows move within the radio group (and wrap to the last choice)
  await expect(page.getByRole("radio", { name: "I'll use my own compatible device" })).toBeChecked();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Space");
  await expect(page.getByLabel("I confirm I will supply a compatible device.")).toBeChecked();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/onboarding\/review$/);
  await page.getByRole("link", { name: "Continue to the agreement" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/onboarding\/agreement$/);
  await page.getByLabel("Type your full name to sign").focus();
  await page.keyboard.type("Mei Chen");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /^Application (submitted|approved)$/ })).toBeVisible();
});

test("the product categories in Spanish (the value saved stays the API's)", async ({ browser, request, baseURL }) => {
  const isv = createIsvWithCli();
  const { main_product: _product, current_sales: _sales, ...rest } = app;
  const { merchant, path } = await merchantWithLink(request, isv, { merchant: rest });
  const context = await browser.newContext({ baseURL, locale: "es-ES", extraHTTPHeaders: { "Accept-Language": "es" } });
  const page = await context.newPage();
  await page.goto(path);
  await expect(page).toHaveURL(/\/onboarding\/product$/);
  const category = page.getByLabel("Categoría", { exact: true });
  await expect(category.locator("option")).toContainText(["Vehículos: venta, repuestos y servicio"]);
  await page.getByLabel("¿Qué vende?").fill("Fideos");
  await page.getByLabel("Sitio web").fill("https://fideos.example");
  // The search in Spanish, the subcategories named in Spanish.
  await page.getByLabel("¿A qué se dedica su negocio?").fill("panadería");
  await expect(page.getByRole("list", { name: "Sectores que encajan" }).getByRole("button").first()).toContainText(
    "Panaderías y pastelerías",
  );
  await page.getByLabel("¿A qué se dedica su negocio?").fill("");
  await category.selectOption({ label: "Restaurantes" });
  await expect(page.getByLabel("Subcategoría", { exact: true }).locator("option")).toContainText(["Comida rápida"]);
  await page.getByLabel("Subcategoría", { exact: true }).selectOption("Restaurants");
  await page.getByRole("button", { name: "Guardar y continuar" }).click();
  await expect(page).toHaveURL(/\/onboarding\/sales$/);
  const saved = await (
    await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(saved.merchant.main_product.category).toBe("Restaurants");
  await context.close();
});

test("comfortable at 375 px: nothing overflows sideways", async ({ browser, request, baseURL }) => {
  const isv = createIsvWithCli();
  const { path } = await merchantWithLink(request, isv, {
    merchant: { legal_business_name: "Tiny Screen LLC", legal_phone: "+14155550123" },
  });
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 375, height: 740 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(path);
  await page.goto("/onboarding/business");
  // A prefilled phone shows the way its hint asks for it, not in E.164.
  await expect(page.getByLabel("Business phone number", { exact: true })).toHaveValue("(415) 555-0123");
  for (const step of ["business", "owners"]) {
    await page.goto(`/onboarding/${step}`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, step).toBeLessThanOrEqual(0);
    // The eight steps take one row (it scrolls sideways), not three; the current one is in view.
    const chips = page.getByRole("list", { name: "Steps" });
    const rows = await chips
      .locator("li")
      .evaluateAll((items) => new Set(items.map((li) => Math.round(li.getBoundingClientRect().top))).size);
    expect(rows, step).toBe(1);
    await expect(page.locator("[aria-current=step]")).toBeInViewport();
    await expectAxeClean(page);
    await page.screenshot({ path: `test-results/screens/wizard-${step}-375.png`, fullPage: true });
  }
  await context.close();
});

test("a superseded link (a newer one was made) shows the branded page and opens no session", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Expiry POS");
  const first = await merchantWithLink(request, isv, { link: { refresh_url: "https://expiry.example/refresh" } });
  await request.post("/v1/onboarding_links", {
    headers: { authorization: isv.auth },
    data: { merchant_id: first.merchant.id, type: "account_onboarding" },
  });
  const res = await page.goto(first.path);
  expect(res?.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "This link is no longer valid" })).toBeVisible();
  await expect(page.getByText("Expiry POS")).toBeVisible();
  await expect(page.getByRole("link", { name: "Get a new link" })).toHaveAttribute(
    "href",
    "https://expiry.example/refresh",
  );
  // The wizard's frame: the ISV's band with its monogram, the footer's line.
  await expect(page.locator("header .monogram")).toHaveText("E");
  await expect(page.getByRole("contentinfo")).toContainText("Secure application");
  await expectAxeClean(page);
  await shots(page, "link-superseded");
  expect((await page.context().cookies()).find((c) => c.name === "onboarding_session")).toBeUndefined();
});

test("hosted pages answer on an ISV's custom domain, and 404 on unknown hosts", async ({ request }) => {
  const isv = createIsvWithCli("Domain POS");
  const domain = `onboard-${Date.now()}.domainpos.example`;
  await setAccount(request, isv, { defaults: { custom_domain: domain } });
  // Asked for, not yet verified: the domain serves nothing.
  expect((await request.get("/onboarding", { headers: { host: domain } })).status()).toBe(404);
  expect(
    (
      await request.post("/v1/test_helpers/account/custom_domain/verify", { headers: { authorization: isv.auth } })
    ).status(),
  ).toBe(200);
  const { link } = await merchantWithLink(request, isv);
  expect(link.url).toMatch(new RegExp(`^https://${domain.replace(/\./g, "\\.")}/onboard/`));
  const unknown = await request.get("/onboarding", { headers: { host: "evil.example" } });
  expect(unknown.status()).toBe(404);
  // The custom domain serves the merchant's pages, never the platform's own (dashboard, sign-in, home).
  for (const path of ["/", "/dashboard", "/sign-in", "/dashboard/settings", "/dashboard-preview"]) {
    expect((await request.get(path, { headers: { host: domain }, maxRedirects: 0 })).status(), path).toBe(404);
  }
  // The link itself opens on the custom domain and the wizard renders there with the ISV's branding.
  const opened = await request.get(new URL(link.url).pathname, { headers: { host: domain }, maxRedirects: 0 });
  expect(opened.status()).toBe(303);
  const cookie = opened.headers()["set-cookie"]!.split(";")[0]!;
  const wizard = await request.get("/onboarding/business", { headers: { host: domain, cookie } });
  expect(wizard.status()).toBe(200);
  expect(await wizard.text()).toContain("Domain POS");
});

test("a wrong signature is refused at once, at the field, and never retried; correcting the name signs only on a click", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli();
  const { path } = await merchantWithLink(request, isv, { merchant: app, link: { allow_skip_device_selection: true } });
  await page.goto(path);
  await page.request.patch("/v1/onboarding/session", { data: { device: { catalog_id: "pax-a920" } } });
  await page.goto("/onboarding/agreement");
  const signs: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v1/onboarding/session/agreement") && r.method() === "POST") signs.push(r.postData() ?? "");
  });
  const field = page.getByLabel("Type your full name to sign");
  await field.fill("Somebody Else");
  await page.getByRole("button", { name: "Sign and submit application" }).click();
  await expect(page.locator("#signature-error")).toHaveText(
    "Type owner one's full name exactly as entered in the application.",
  );
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toBeFocused();
  await expectAxeClean(page);
  await expect(page.getByRole("button", { name: "Sign and submit application" })).toBeEnabled();
  // Typing the right name does nothing by itself: no retry carries it off.
  await field.fill(`${app.owner_one.first_name} ${app.owner_one.last_name}`);
  await page.waitForTimeout(2500); // longer than the retries' delays (0.5 s, 1 s)
  expect(signs).toHaveLength(1);
  expect((await (await page.request.get("/v1/onboarding/session")).json()).agreement.signed).toBe(false);
  // Signed and submitted in one action: the completion page says what underwriting decided once it
  // has (within seconds here).
  await page.getByRole("button", { name: "Sign and submit application" }).click();
  await expect(page).toHaveURL(/\/onboarding\/complete/);
  expect(signs).toHaveLength(2);
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole("heading", { level: 1 }).textContent();
      },
      { timeout: 15_000 },
    )
    .toBe("Application approved");
  await expect(page.getByRole("status")).toContainText("your application is approved");
  // Approved: the way to the merchant's own home.
  await expect(page.getByTestId("open-home")).toHaveAttribute("href", "/home/sign-in");
});
