import { startReceiver } from "../tests/helpers/receiver";
import {
  application,
  approvedMerchant,
  createIsvWithCli,
  expectAxeClean,
  expectScrollCues,
  memberBearer,
  merchantWithLink,
  paidCharge,
  secondStep,
  signIn,
  submittedThroughSession,
} from "./helpers";
import { expect, test } from "./test";

test("sign in: a wrong password is a clear error; the session cookie is httpOnly and works as a Bearer token until sign-out", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Dash POS");
  await page.goto("/sign-in");
  await expectAxeClean(page);
  await page.getByLabel("Email").fill(isv.user_email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await signIn(page, isv);
  const cookie = (await page.context().cookies()).find((c) => c.name === "dashboard_session")!;
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe("Lax");
  const res = await request.get("/v1/account", { headers: { authorization: `Bearer ${cookie.value}` } });
  expect((await res.json()).id).toBe(isv.account_id);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in$/);
  // Signed out is over: the same token, kept by whoever copied the cookie, opens nothing more.
  const after = await request.get("/v1/account", { headers: { authorization: `Bearer ${cookie.value}` } });
  expect(after.status()).toBe(401);
  await page.context().addCookies([{ ...cookie }]);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("merchants: list, filter, search, a merchant's history and a new link", async ({ page, request }) => {
  const isv = createIsvWithCli("List POS");
  const { merchant } = await merchantWithLink(request, isv, {
    merchant: { legal_business_name: "Findable Tacos LLC" },
    phone: "+14155550177",
  });
  await merchantWithLink(request, isv, { merchant: { legal_business_name: "Other Shop" } });
  await signIn(page, isv);
  const dashboardNav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(dashboardNav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await dashboardNav.getByRole("link", { name: "Merchants" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Merchants");
  // The section is lit as a tab (and said to screen readers), the others not.
  await expect(dashboardNav.getByRole("link", { name: "Merchants" })).toHaveAttribute("aria-current", "page");
  await expect(dashboardNav.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current", "page");
  await expectAxeClean(page);
  await page.getByLabel("Search by name, e-mail, phone or id").fill("tacos");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: "Findable Tacos LLC" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Other Shop" })).toHaveCount(0);
  // Each merchant's volume of the last 30 days beside its status and creation date.
  await expect(page.getByRole("columnheader", { name: "Net volume (30 days)" })).toBeVisible();
  await expect(page.getByTestId("volume")).toHaveText("$0.00no payments");
  // By its id, exactly.
  await page.getByLabel("Search by name, e-mail, phone or id").fill(merchant.id);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: "Findable Tacos LLC" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Other Shop" })).toHaveCount(0);
  await page.getByLabel("Search by name, e-mail, phone or id").fill("555 0177");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: "Findable Tacos LLC" })).toBeVisible();
  await page.getByLabel("Search by name, e-mail, phone or id").fill("");
  await page.getByLabel("Status").selectOption("APPROVED");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No merchants yet.")).toBeVisible();
  await page.goto(`/dashboard/merchants/${merchant.id}`);
  await expect(page.getByRole("heading", { name: "Findable Tacos LLC" })).toBeVisible();
  // A merchant's page is under Merchants.
  await expect(dashboardNav.getByRole("link", { name: "Merchants" })).toHaveAttribute("aria-current", "page");
  // Events in words, never their type.
  await expect(page.getByText("Merchant created")).toBeVisible();
  await expect(page.getByText("merchant.created")).toHaveCount(0);
  await expect(page.getByText("merchant.updated")).toHaveCount(0);
  // Statuses read in words, not as the API's enumeration.
  await expect(page.getByText("Not started").first()).toBeVisible();
  await expect(page.getByText("NOT_STARTED")).toHaveCount(0);
  await expect(page).toHaveTitle(/^Findable Tacos LLC · /);
  await expect(page.locator("[data-status=NOT_STARTED]")).toHaveText("Not started");
  // What is due, in the form's words; the application as far as it goes; the device.
  const due = page.getByTestId("requirements");
  await expect(due).toContainText("Bank account");
  await expect(due).toContainText("Legal business address");
  await expect(due).not.toContainText("merchant.");
  // The page's tabs, each its own URL: the application and the device under "Application".
  const tabs = page.getByRole("navigation", { name: "About this merchant" });
  await expect(tabs.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Application" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/merchants/${merchant.id}\\?tab=application$`));
  await expect(tabs.getByRole("link", { name: "Application" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("application")).toContainText("Findable Tacos LLC");
  await expect(page.getByTestId("device")).toHaveText("No device chosen yet.");
  await expect(page.getByTestId("requirements")).toHaveCount(0);
  // Deactivate (after a confirmation, under Settings) and reactivate; the API agrees.
  await tabs.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\?tab=settings$/);
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Deactivate merchant" }).click();
  await expect(page.locator("[data-status=DEACTIVATED]")).toHaveText("Deactivated");
  expect(
    (await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json())
      .deactivated,
  ).toBe(true);
  await page.getByRole("button", { name: "Reactivate merchant" }).click();
  await expect(page.locator("[data-status=DEACTIVATED]")).toHaveCount(0);
  expect(
    (await (await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })).json())
      .deactivated,
  ).toBe(false);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // Every tab in sight, the current one too (the row wraps on a phone rather than hiding it).
    for (const name of ["Overview", "Activity", "Settings"])
      await expect(tabs.getByRole("link", { name })).toBeInViewport();
    await page.screenshot({ path: `test-results/screens/dashboard-merchant-${width}.png`, fullPage: true });
  }
  await expectAxeClean(page);
  // In Spanish.
  await page.context().addCookies([{ name: "locale", value: "es", url: page.url() }]);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=application`);
  await expect(page.locator("[data-status=NOT_STARTED]")).toHaveText("Sin empezar");
  await expect(page.getByRole("heading", { name: "Solicitud", exact: true })).toBeVisible();
  await page.goto(`/dashboard/merchants/${merchant.id}`);
  await expect(page.getByTestId("requirements")).toContainText("Cuenta bancaria");
  await expect(page.getByText("Comercio creado")).toBeVisible();
  await expectAxeClean(page);
  await page.context().addCookies([{ name: "locale", value: "en", url: page.url() }]);
  await page.reload();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Create a new link and copy it" }).click();
  await expect(page.getByTestId("new-link")).toContainText("/onboard/");
  // Another ISV's merchant is not found.
  const other = createIsvWithCli("Other");
  await page.context().clearCookies();
  await signIn(page, other);
  const res = await page.goto(`/dashboard/merchants/${merchant.id}`);
  expect(res?.status()).toBe(404);
});

test("settings: the preview changes before saving; after saving a real merchant's link shows the new branding", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Brand POS");
  await signIn(page, isv);
  await page.goto("/dashboard/settings");
  await expectAxeClean(page);
  const preview = page.frameLocator("iframe[title='Live preview']");
  await expect(preview.locator("header")).toHaveCSS("background-color", "rgb(29, 78, 216)");
  await page.getByLabel("Primary color", { exact: true }).fill("#be123c");
  // The swatch follows the code; the contrast is said in words.
  await expect(page.getByLabel("Primary color swatch")).toHaveValue("#be123c");
  await expect(page.locator("#primary_color-hint")).toHaveText(
    /^Buttons get white text on it: contrast \d+\.\d:1, easy to read\.$/,
  );
  await page.getByLabel("Primary color", { exact: true }).fill("#facc15");
  await expect(page.locator("#primary_color-hint")).toHaveText(/^Buttons get dark text on it/);
  await page.getByLabel("Primary color", { exact: true }).fill("#be123c");
  await page.getByLabel("Display name").fill("Rosewood Payments");
  await page.getByLabel("Logo URL").fill("/icon.svg");
  // The logo as the pages show it, beside the field; a file that breaks the rules is said in words.
  await expect(page.getByRole("img", { name: "Your logo, as your pages show it" })).toHaveAttribute("src", "/icon.svg");
  // The upload is a button in the page's words (not the browser's "Choose File").
  await expect(page.getByText("Choose an image", { exact: true })).toBeVisible();
  await page.getByLabel(/Or upload a logo/).setInputFiles({
    name: "big.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(101 * 1024),
  });
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    "That file is larger than 100 KB: choose a smaller one.",
  );
  await expect(preview.locator("header")).toHaveCSS("background-color", "rgb(190, 18, 60)");
  await expect(preview.getByTestId("brand-name")).toHaveText("Rosewood Payments");
  await expect(preview.locator("header img")).toHaveAttribute("src", "/icon.svg");
  // Nothing saved yet.
  expect(
    (await (await request.get("/v1/account", { headers: { authorization: isv.auth } })).json()).defaults.primary_color,
  ).toBe("#1d4ed8");
  // Spanish, phone width.
  await page.getByLabel("Preview language").selectOption("es");
  await page.getByLabel("Preview width").selectOption("1024");
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText("Negocio");
  // The desktop frame is scaled to the column, never cropped.
  const frameBox = (await page.locator("iframe[title='Live preview']").boundingBox())!;
  const column = (await page.getByTestId("preview-box").boundingBox())!;
  expect(frameBox.width).toBeLessThanOrEqual(column.width + 1);
  await page.getByLabel("Preview step").selectOption({ label: "Bank account" });
  // Errors in words and in the form's units; nothing saved.
  await page.getByLabel("Onboarding links stay valid for (hours)").fill("0");
  await page.getByRole("button", { name: "Save settings" }).click();
  const problem = page.getByRole("alert").filter({ hasText: "Some settings" });
  await expect(problem).toContainText("between 1 and 168 hours");
  await expect(problem).not.toContainText("seconds");
  await page.getByLabel("Onboarding links stay valid for (hours)").fill("48");
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-settings-${width}.png`, fullPage: true });
  }
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  const account = await (await request.get("/v1/account", { headers: { authorization: isv.auth } })).json();
  expect(account.defaults).toMatchObject({
    primary_color: "#be123c",
    display_name: "Rosewood Payments",
    logo: "/icon.svg",
  });
  expect(account.settings.onboarding_link_ttl_seconds).toBe(48 * 3600);
  const { path } = await merchantWithLink(request, isv);
  const merchantPage = await page.context().newPage();
  await merchantPage.goto(path);
  await expect(merchantPage.getByTestId("brand-name")).toHaveText("Rosewood Payments");
  await expect(merchantPage.locator("header")).toHaveCSS("background-color", "rgb(190, 18, 60)");
});

test("settings: a custom domain shows the DNS record to publish, a failed check in words, then when it was verified", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Domain Settings POS");
  await signIn(page, isv);
  await page.goto("/dashboard/settings");
  const domain = `pay-${Date.now()}.domainsettings.example`;
  await page.getByLabel("Custom domain").fill(domain);
  await expect(page.getByText("Save to get the DNS record for this domain.")).toBeVisible();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  const account = await (await request.get("/v1/account", { headers: { authorization: isv.auth } })).json();
  const record = account.custom_domain_verification.record;
  await expect(page.getByText(record.name, { exact: true })).toBeVisible();
  await expect(page.getByText(record.value, { exact: true })).toBeVisible();
  // No such record exists: said in words, and the domain stays pending.
  await page.getByRole("button", { name: "Check DNS now" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not found yet" })).toBeVisible();
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-settings-domain-${width}.png`, fullPage: true });
  }
  expect(
    (await (await request.get("/v1/account", { headers: { authorization: isv.auth } })).json())
      .custom_domain_verification.status,
  ).toBe("pending");
  // The same panel in Spanish: every word translated, the record as it is.
  await page.context().addCookies([{ name: "locale", value: "es", url: page.url() }]);
  await page.reload();
  await expect(page.getByText("Aún sin verificar", { exact: false })).toBeVisible();
  await expect(page.getByText(record.value, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Comprobar DNS ahora" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Todavía no se encontró el registro" })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: "test-results/screens/dashboard-settings-domain-es-375.png", fullPage: true });
  await page.context().addCookies([{ name: "locale", value: "en", url: page.url() }]);
  expect(
    (
      await request.post("/v1/test_helpers/account/custom_domain/verify", { headers: { authorization: isv.auth } })
    ).status(),
  ).toBe(200);
  await page.reload();
  await expect(
    page.getByRole("status").filter({ hasText: /^Verified on .+: your pages and links use this domain\.$/ }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Check DNS now" })).toHaveCount(0);
});

test("developers: create a webhook; roll the API key and the old one is rejected; a restricted key", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Dev POS");
  await signIn(page, isv);
  await page.goto("/dashboard/developers");
  await expectAxeClean(page);
  await expect(page.getByTestId("account-sid")).toHaveText(isv.account_sid);
  // Where the documentation is, the base URL, and what a publishable key is for.
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
  await expect(page.getByTestId("base-url")).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  await expect(page.getByRole("region", { name: "Publishable keys" })).toContainText(
    "payment.tokenizer_publishable_key",
  );
  await page.getByLabel("Endpoint URL").fill("https://dev.example/hooks");
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByText(/Signing secret/)).toContainText("whsec_");
  await expect(page.getByText("https://dev.example/hooks").first()).toBeVisible();
  const hooks = await (await request.get("/v1/webhooks", { headers: { authorization: isv.auth } })).json();
  expect(hooks.data.map((h: any) => h.url)).toEqual(["https://dev.example/hooks"]);
  // The account's first key, rolled so that the old secret stops now.
  const keys = page.getByTestId("api-keys");
  await expect(keys.locator("li")).toHaveCount(1);
  await page.getByLabel("How long the old Standard key keeps working").selectOption("0");
  await page.getByRole("button", { name: "Roll Standard key" }).click();
  const secret = await page.getByTestId("new-key-secret").textContent();
  expect(secret).toMatch(/^sk_test_/);
  expect((await request.get("/v1/account", { headers: { authorization: isv.auth } })).status()).toBe(401);
  const fresh = `Basic ${Buffer.from(`${isv.account_sid}:${secret}`).toString("base64")}`;
  expect((await request.get("/v1/account", { headers: { authorization: fresh } })).status()).toBe(200);
  await expect(keys.locator("li")).toHaveCount(1);

  // A restricted key that reads payments and nothing else.
  await page.getByLabel("Key name").fill("Reporting tool");
  await page.getByLabel("Payments", { exact: true }).selectOption("read");
  await page.getByRole("button", { name: "Make the key" }).click();
  const restricted = await page.getByRole("region", { name: "Make a key" }).getByTestId("new-key-secret").textContent();
  expect(restricted).toMatch(/^rk_test_/);
  await expect(keys.locator('[data-key="Reporting tool"]')).toContainText("Restricted");
  await expect(keys.locator('[data-key="Reporting tool"]')).toContainText("Payments: Read");
  const limited = { authorization: `Basic ${Buffer.from(`${isv.account_sid}:${restricted}`).toString("base64")}` };
  expect((await request.get("/v1/charges", { headers: limited })).status()).toBe(200);
  expect((await request.post("/v1/merchants", { headers: limited, data: { phone: "+14155550123" } })).status()).toBe(
    403,
  );
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-api-keys-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The audit log says who did each of these: the operator made the account, a team member the rest.
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  const rows = page.getByTestId("audit-entries").getByRole("row");
  await expect(rows.nth(1)).toContainText("Team member");
  await expect(rows.nth(1)).toContainText("API key created");
  await expect(rows.nth(2)).toContainText("API key replaced");
  await expect(rows.nth(2)).toContainText("api_key.rotated");
  await expect(rows.nth(3)).toContainText("Webhook added");
  await expect(rows.nth(3)).toContainText("url, scopes");
  await expect(rows.last()).toContainText("Operator");
  await expect(rows.last()).toContainText("Account created");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-audit-${width}.png`, fullPage: true });
  }
  // On a phone the log is wider than the screen: it says so (a line asking to swipe, its right side
  // faded); at 1280 it fits and says nothing. Swiped to its end, only the left side fades.
  await page.setViewportSize({ width: 375, height: 900 });
  const log = page.locator(".scroll-cue").filter({ has: page.getByTestId("audit-entries") });
  await expect(page.getByTestId("scroll-hint")).toHaveText("Swipe or scroll sideways to see every column.");
  await expect(log).toHaveAttribute("data-more", "right");
  await log.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
  await expect(log).toHaveAttribute("data-more", "left");
  await expectScrollCues(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByTestId("scroll-hint")).toHaveCount(0);
  await expect(log).toHaveAttribute("data-more", "none");
  // A team member's name beside its id.
  await expect(rows.nth(1)).toContainText(isv.user_email);
  await page.getByLabel("Resource id").fill(isv.account_id);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(rows).toHaveCount(2); // the header, the creation (a key's roll names the key)
  // By what was done, by who (a part of the e-mail), and between two days.
  await page.goto("/dashboard/audit");
  await page.getByLabel("What").selectOption({ label: "Webhook added" });
  await page.getByRole("button", { name: "Show" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("Webhook added");
  await page.goto("/dashboard/audit");
  await page.getByLabel("Who (name, e-mail or id)").fill(isv.user_email.split("@")[0]!);
  await page.getByRole("button", { name: "Show" }).click();
  // The app set up at the first sign-in, the key made, the roll, the webhook: not the operator's creation.
  await expect(rows).toHaveCount(5);
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("From (UTC day)").fill(today);
  await page.getByLabel("To (UTC day)").fill(today);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(rows).toHaveCount(5);
  await page.getByLabel("From (UTC day)").fill(yesterday);
  await page.getByLabel("To (UTC day)").fill(yesterday);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByText("No entry matches.")).toBeVisible();
  await expectAxeClean(page);
});

test("developers: a failing delivery shows its event, answer and error, and is sent again with a click (Spanish too)", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Retry POS");
  let failing = true;
  // 410 Gone: the delivery fails at once and the endpoint is disabled (docs/webhooks.md).
  const receiver = await startReceiver(() => ({ status: failing ? 410 : 200 }));
  try {
    await request.post("/v1/webhooks", {
      headers: { authorization: isv.auth },
      data: { url: receiver.url, scopes: ["merchant"] },
    });
    await request.post("/v1/merchants", { headers: { authorization: isv.auth }, data: { phone: "+14155550123" } });
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await signIn(page, isv);
    await page.goto("/dashboard/developers");
    const row = page.locator("[data-delivery]").first();
    await expect(row).toContainText("merchant.created");
    await expect(row).toContainText("HTTP 410");
    await expect(row).toContainText("Failed");
    await expect(page.getByText("merchant · Disabled")).toBeVisible();
    await expectAxeClean(page);
    failing = false;
    const before = receiver.received.length;
    await row.getByRole("button", { name: "Send merchant.created again" }).click();
    // The page refreshes itself: the delivery is waiting for its try, or already delivered.
    await expect(page.locator("[data-delivery]").first()).toContainText(/Retrying|Delivered/);
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(before);
    await expect
      .poll(async () => (await page.reload(), await page.locator("[data-delivery]").first().textContent()), {
        timeout: 15_000,
      })
      .toContain("Delivered");
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/screens/dashboard-developers-${width}.png`, fullPage: true });
    }
    await page.context().addCookies([{ name: "locale", value: "es", url: page.url() }]);
    await page.reload();
    await expect(page.locator("[data-delivery]").first()).toContainText("Entregado");
    await expect(page.getByText("merchant · Activo")).toBeVisible();
    await expectAxeClean(page);
  } finally {
    await receiver.close();
  }
});

test("payments across merchants: found by card's last 4, amount and status, each leading to its merchant; in Spanish too", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const isv = createIsvWithCli("Payments search POS");
  const noodles = await approvedMerchant(request, isv);
  const app = application();
  app.legal_business_name = "Bayview Bakery LLC";
  app.doing_business_as = "Bayview Bakery";
  const bakery = await approvedMerchant(request, isv, app);
  const noodleCharge = await paidCharge(request, isv, noodles, 4_200);
  const bakeryCharge = await paidCharge(request, isv, bakery, 1_850, "5555555555554444");
  // Another ISV's payment of the same amount and card never shows.
  const other = createIsvWithCli("Other payments ISV");
  await paidCharge(request, other, await approvedMerchant(request, other), 1_850, "5555555555554444");

  await signIn(page, isv);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payments" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payments");
  const rows = page.getByTestId("payments").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Bayview Bakery");
  await expect(rows.nth(0)).toContainText("$18.50");
  await expect(rows.nth(1)).toContainText("Golden Gate Noodles");
  await expect(rows.nth(1)).toContainText("$42.00");

  // The card's last 4: only the bakery's payment.
  await page.getByLabel("Last 4 digits").fill("4444");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/last4=4444/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Bayview Bakery");
  // An amount as people type it: only the noodle house's.
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments$/);
  await expect(page.getByLabel("Last 4 digits")).toHaveValue("");
  await page.getByLabel("Amount").fill("$42.00");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Golden Gate Noodles");
  // A status nothing has: nothing matches, said in words.
  await page.getByLabel("Status").selectOption({ label: "Returned by the bank" });
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page.getByText("No payment matches these filters.")).toBeVisible();
  // Three digits are not a last 4: said beside the field, and nothing else filtered away.
  await page.goto("/dashboard/payments?last4=444");
  await expect(page.getByLabel("Last 4 digits")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Four digits, like 4242.")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-payments-en-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // A payment leads to its page on its merchant; the merchant's name to the merchant's payments.
  await page.goto("/dashboard/payments");
  await rows.filter({ hasText: "Bayview Bakery" }).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/merchants/${bakery.id}/charges/${bakeryCharge}$`));
  await page.goto("/dashboard/payments");
  await rows.filter({ hasText: "Golden Gate Noodles" }).getByRole("link", { name: "Golden Gate Noodles" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/merchants/${noodles.id}\\?tab=payments$`));
  await expect(page.locator(`[data-charge="${noodleCharge}"]`)).toBeVisible();

  await page.context().addCookies([{ name: "locale", value: "es", url: new URL(page.url()).origin }]);
  await page.goto("/dashboard/payments?last4=4444");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pagos");
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("payments").locator("thead")).toContainText("Comercio");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-payments-es-${width}.png`, fullPage: true });
  }
});

test("dashboard pages work at 375 px", async ({ browser, baseURL }) => {
  // Every page twice (English and Spanish), each measured and photographed: 1.5 min on a loaded CI machine.
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Small POS");
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await signIn(page, isv);
  const titles: Record<string, [string, string]> = {
    "/dashboard": ["Overview", "Resumen"],
    "/dashboard/merchants": ["Merchants", "Comercios"],
    "/dashboard/payments": ["Payments", "Pagos"],
    "/dashboard/customers": ["Customers", "Clientes"],
    "/dashboard/settings": ["Settings", "Configuración"],
    "/dashboard/developers": ["Developers", "Desarrolladores"],
    "/dashboard/revenue": ["Revenue", "Ingresos"],
  };
  for (const [locale, index] of [
    ["en", 0],
    ["es", 1],
  ] as const) {
    await context.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
    for (const path of Object.keys(titles)) {
      await page.goto(path);
      // Every page has its title, in the reader's language.
      await expect(page).toHaveTitle(new RegExp(titles[path]![index]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[path]![index]);
      // The settings' live preview starts in the reader's language.
      if (path === "/dashboard/settings")
        await expect(page.frameLocator("iframe[title]").getByRole("heading", { level: 1 })).toHaveText(
          locale === "es" ? "Negocio" : "Business",
        );
      await expectAxeClean(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      await page.screenshot({
        path: `test-results/screens/dashboard${path.replace(/\//g, "-")}-${locale}-375.png`,
        fullPage: true,
      });
    }
  }
  await context.close();
});

test("reports: ask for one, see it made, download its CSV; in Spanish too", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Reports ISV");
  const merchant = await approvedMerchant(request, isv);
  const headers = { authorization: isv.auth };
  const pr = await (
    await request.post("/v1/scan_to_pay", { headers, data: { merchant_id: merchant.id, amount: 4_200 } })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } });
  await signIn(page, isv);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reports");
  await expect(page.getByTestId("reports")).toHaveCount(0);
  await page.getByLabel("Report", { exact: true }).selectOption("balance_transactions");
  await page.getByRole("button", { name: "Make the report" }).click();
  await expect(page.getByRole("status")).toContainText("Asked for");
  // Made by the worker: the page follows it until it is ready.
  const row = page.getByTestId("reports").getByRole("row").nth(1);
  await expect(row.getByTestId("report-status")).toHaveText("Ready", { timeout: 20_000 });
  await expect(row).toContainText("Balance transactions");
  await expect(row).toContainText("All merchants");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const fs = await import("node:fs");
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\n")[0]).toBe(
    "id,created,merchant_id,type,source,amount,fee,net,currency,status,available_on,settlement_id,payout_id,description",
  );
  expect(csv).toContain(",charge,");
  expect(csv).toContain(",42.00,");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-reports-en-${width}.png`, fullPage: true });
  }
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Informes");
  await expect(row.getByTestId("report-status")).toHaveText("Listo");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-reports-es-${width}.png`, fullPage: true });
  }
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
});

test("the overview: the period's figures, the 30 days' chart, the funnel and what needs the ISV, in both languages", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const isv = createIsvWithCli("Overview POS");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  for (const amount of [4_200, 1_850]) await paidCharge(request, isv, merchant, amount);
  // Underwriting asks this one for more (the sandbox's TIN): it waits on the merchant.
  const app = application();
  app.tin = "111111111";
  app.legal_business_name = "Waiting Bakery LLC";
  app.doing_business_as = "Waiting Bakery";
  const waiting = await submittedThroughSession(request, isv, app);
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${waiting}`, { headers })).json()).lead_onboarding_status as string,
      { timeout: 15_000 },
    )
    .toBe("IN_PROGRESS");

  await signIn(page, isv);
  await expect(page.getByTestId("figure-volume")).toContainText("$60.50");
  await expect(page.getByTestId("figure-volume")).toContainText("2 payments");
  await expect(page.getByTestId("figure-new-merchants")).toContainText("2");
  await expect(page.getByTestId("figure-approved")).toContainText("1");
  // The funnel: both opened their link and submitted; one approved (50 %).
  const steps = page.getByTestId("chart-funnel-step");
  await expect(steps).toHaveText([/Opened their link\s*2/, /Submitted\s*2\s*· 100%/, /Approved\s*1\s*· 50%/]);
  // The chart's figures are a table too.
  await page.getByText("Show the figures as a table").click();
  await expect(page.getByRole("table").last()).toContainText("$60.50");
  await expect(page.getByTestId("attention-waiting")).toContainText("1 merchant waits on a document or an answer");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-overview-en-${width}.png`, fullPage: true });
  }
  // Today: the same figures (everything happened today); the period's link says it is the current one.
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Today" }).click();
  await expect(page).toHaveURL(/period=today/);
  await expect(page.getByRole("link", { name: "Today" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("figure-volume")).toContainText("$60.50");
  // The attention list leads to the merchant.
  await page.getByTestId("attention-waiting").getByRole("link", { name: "Waiting Bakery" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/merchants/${waiting}$`));

  // Every page of a sandbox deployment says so.
  await expect(page.getByTestId("sandbox-badge")).toHaveText(/Sandbox/);

  // An approved merchant's page opens its home in a new tab, signed in (a login link, used once).
  await page.goto(`/dashboard/merchants/${merchant.id}`);
  const [home] = await Promise.all([
    page.waitForEvent("popup"),
    page.getByRole("button", { name: /Open this merchant's home/ }).click(),
  ]);
  await home.waitForURL(/\/home(\/|$)/);
  await expect(home.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await home.evaluate(() => window.opener)).toBeNull();
  const audit = await (
    await request.get(`/v1/audit_logs?resource_id=${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(audit.data.map((e: { action: string }) => e.action)).toContain("login_link.created");
  await home.close();
  // The dangerous action is last, under Settings.
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=settings`);
  const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
  expect(headings.at(-1)).toBe("Deactivate");

  await context.addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resumen");
  // Money as the Spanish (United States) reader writes it.
  await expect(page.getByTestId("figure-volume")).toContainText("$60.50");
  await expect(page.getByTestId("figure-volume")).toContainText("2 pagos");
  await expect(page.getByTestId("attention-waiting")).toContainText("1 comercio espera un documento o una respuesta");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/dashboard-overview-es-${width}.png`, fullPage: true });
  }
});

test("forgot password: a link by e-mail, a new password, every other session signed out; the same answer for an unknown e-mail", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const isv = createIsvWithCli("Reset POS");
  // Another browser signed in before the reset.
  const elsewhere = await browser.newContext({ baseURL });
  const other = await elsewhere.newPage();
  await signIn(other, isv);

  await page.goto("/sign-in");
  await expect(page.getByTestId("sandbox-badge")).toBeVisible();
  // The platform's own brand, leading to its home page.
  await expect(page.getByTestId("platform-brand")).toHaveText("Merchant onboarding and payments");
  await expect(page.getByTestId("platform-brand")).toHaveAttribute("href", "/");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your password");
  await expectAxeClean(page);
  await page.getByLabel("Email").fill("nobody@example.test");
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account uses nobody@example.test");
  await page.goto("/sign-in/forgot");
  await page.getByLabel("Email").fill(isv.user_email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status")).toContainText(`If an account uses ${isv.user_email}`);
  await page.screenshot({ path: "test-results/screens/dashboard-forgot-375.png" });

  const outbox = await (await request.get("/v1/test_helpers/outbox", { headers: { authorization: isv.auth } })).json();
  const mail = outbox.data.find((m: { kind: string }) => m.kind === "password_reset");
  const path = new URL(mail.text.match(/(http\S+\/sign-in\/reset\/\S+)/)[1]).pathname;
  await page.goto(path);
  await page.getByLabel("New password").fill("a new long password");
  await page.getByLabel("The same password again").fill("not the same one");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("The two passwords are not the same.");
  await page.getByLabel("New password").fill("a new long password");
  await page.getByLabel("The same password again").fill("a new long password");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reset=1$/);
  await expect(page.getByRole("status")).toContainText("Your password was changed");
  await expectAxeClean(page);
  await page.getByLabel("Email").fill(isv.user_email);
  await page.getByLabel("Password").fill("a new long password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await secondStep(page, isv.user_email);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  // The link is spent; the other browser's session has ended.
  await page.goto(path);
  await page.getByLabel("New password").fill("yet another password");
  await page.getByLabel("The same password again").fill("yet another password");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This link was already used or has expired.");
  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/sign-in$/);
  await elsewhere.close();
});

test("the payout bank account changed: every user's e-mail has a 'this wasn't us' link; its button freezes the payouts, once", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Guarded POS");
  // An API key may not change it; a fresh sign-in may.
  const bank = { routing_number: "021000021", account_number: "000123456789", account_holder_name: "Guarded POS" };
  const byKey = await request.patch("/v1/account", {
    headers: { authorization: isv.auth },
    data: { payout_bank_account: bank },
  });
  expect(byKey.status()).toBe(403);
  // The owner sets up its app once in the dashboard; its code signs the API's token.
  await signIn(page, isv);
  const changed = await request.patch("/v1/account", {
    headers: { authorization: await memberBearer(request, isv) },
    data: { payout_bank_account: bank },
  });
  expect(changed.status()).toBe(200);

  const outbox = await (await request.get("/v1/test_helpers/outbox", { headers: { authorization: isv.auth } })).json();
  const mail = outbox.data.find((m: { kind: string }) => m.kind === "account_bank_account_changed");
  expect(mail.to).toBe(isv.user_email);
  const path = new URL(mail.text.match(/(http\S+\/sign-in\/report\/\S+)/)[1]).pathname;
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A change to your payout bank account");
  await expect(page.getByRole("main")).toContainText("an account ending 6789");
  await expectAxeClean(page);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `test-results/screens/account-report-${width}.png`, fullPage: true });
  }
  await page.getByRole("button", { name: "This wasn’t us: freeze our payouts" }).click();
  await expect(page.getByRole("status")).toHaveText(/Your payouts are frozen/);
  await expectAxeClean(page);
  await page.screenshot({ path: "test-results/screens/account-report-done-1280.png" });
  const account = await (await request.get("/v1/account", { headers: { authorization: isv.auth } })).json();
  expect(account.payouts_frozen_at).not.toBeNull();

  // Single use: the link now says so and freezes nothing again.
  await page.goto(path);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("This link was already used");
  await expect(page.getByRole("button", { name: "This wasn’t us: freeze our payouts" })).toHaveCount(0);
});
