import AxeBuilder from "@axe-core/playwright";

import { createIsvWithCli } from "./helpers";
import { expect, test } from "./test";

test("GET /docs renders the interactive API reference from /v1/openapi.json, with no hosted-service buttons and no outside calls", async ({
  page,
  baseURL,
}) => {
  const errors: string[] = [];
  const outside: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith("data:")) outside.push(r.url());
  });
  // Nothing it loads is missing, and its own validator finds nothing to say of the document.
  const missing: string[] = [];
  const warnings: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  page.on("console", (m) => {
    if (m.type() === "warning" || m.type() === "error") warnings.push(m.text());
  });
  await page.goto("/docs");
  await expect(page.getByText("Merchant onboarding and payments API").first()).toBeVisible();
  expect(missing).toEqual([]);
  expect(warnings).toEqual([]);
  await expect(page.getByText("Sign in and get a Bearer JWT").first()).toBeVisible();
  for (const upsell of [/Developer Tools/i, /Ask AI/i, /Open API Client/i, /Deploy/i, /Generate SDK/i])
    await expect(page.getByRole("button", { name: upsell })).toHaveCount(0);
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
});

test("the home page links to the docs and is axe-clean", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Merchant onboarding and payments");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
});

test("the home page speaks Spanish from Accept-Language", async ({ browser }) => {
  const context = await browser.newContext({
    locale: "es-ES",
    extraHTTPHeaders: { "Accept-Language": "es-ES,es;q=0.9" },
  });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Alta de comercios y pagos");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await context.close();
});

test("an ISV created with the CLI while the server runs can call the API at once", async ({ request }) => {
  const isv = createIsvWithCli("Playwright ISV");
  const res = await request.get("/v1/account", { headers: { authorization: isv.auth } });
  expect(res.status()).toBe(200);
  expect((await res.json()).defaults.display_name).toBe("Playwright ISV");
});
