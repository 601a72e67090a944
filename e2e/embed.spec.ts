import fs from "node:fs";
import type http from "node:http";
import path from "node:path";

import type { Frame } from "@playwright/test";
import { decodeJwt, SignJWT } from "jose";

import { startExample } from "../examples/embed/server.mjs";
import {
  application,
  approvedMerchant,
  componentFrame as sharedComponentFrame,
  createIsvWithCli,
  expectAxeClean,
  licencePng,
  paidCharge,
  setAccount,
} from "./helpers";
import { type APIRequestContext, expect, type Page, test, waitForHydration } from "./test";
import { fillBusiness, fillOwner } from "./wizard-steps";

// Embedded components (docs/embedding.md) on two loopback origins: the example ISV page
// (examples/embed, http://localhost:<port>) and the service (http://127.0.0.1:3210): two sites, so
// the frame is a third-party context with partitioned cookies, as on an ISV's real domain.

const HOST_PORT = 4310 + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const hostOrigin = `http://localhost:${HOST_PORT}`;
// The tests share what beforeAll makes (its ISV, merchant or host page): one worker, in order.
test.describe.configure({ mode: "default" });
let host: http.Server | undefined;
let serviceOrigin = "";

test.beforeAll(async ({ baseURL }) => {
  serviceOrigin = new URL(baseURL!).origin;
});
test.afterEach(async () => {
  await new Promise((resolve) => (host ? host.close(resolve) : resolve(null)));
  host = undefined;
});

/** The example ISV page, serving account sessions for this ISV. */
async function startHost(isv: { account_sid: string; secret_key: string }) {
  host = await startExample({
    port: HOST_PORT,
    host: "localhost",
    api: serviceOrigin,
    accountSid: isv.account_sid,
    secretKey: isv.secret_key,
  });
}

/** The component's frame (the service's origin), once its page shows, hydrated. */
const componentFrame = (page: Page, element: string, path: RegExp) =>
  sharedComponentFrame(page, element, path, serviceOrigin);

/** The events the host page logged (its "Events" list), as "type detail-json". */
const events = (page: Page) => page.getByRole("list", { name: "Events" }).locator("li").allTextContents();

/** The host page at a phone's and a desktop's width, once each frame has taken its content's new height. */
async function shots(page: Page, name: string) {
  const frames = () => page.frames().filter((f) => f.url().startsWith(serviceOrigin) && !f.isDetached());
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // Each frame seen in turn (Chromium does not lay out offscreen cross-origin frames), until it has
    // taken its content's height.
    for (const frame of frames()) {
      const element = await frame.frameElement();
      await element.scrollIntoViewIfNeeded();
      await expect
        .poll(async () => {
          const content = await frame
            .evaluate(() => Math.ceil(document.querySelector("[data-embed-root]")?.getBoundingClientRect().height ?? 0))
            .catch(() => -1);
          const box = await element.evaluate((el) => (el as HTMLElement).clientHeight);
          return content <= 0 || content === box;
        })
        .toBe(true);
    }
    // The whole page in the viewport (Chromium paints no cross-origin frame outside it), then the picture.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const frame of frames())
      await expect
        .poll(() => frame.evaluate(() => document.documentElement?.dataset.hydrated ?? "").catch(() => "1"))
        .toBe("1");
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const save = (frame: Frame) => frame.getByRole("button", { name: "Save and continue" }).click();

async function nextStep(frame: Frame, step: string) {
  await frame.waitForURL(new RegExp(`/onboarding/${step}$`));
  await waitForHydration(frame);
}

async function newMerchant(request: APIRequestContext, isv: { auth: string }) {
  const res = await request.post("/v1/merchants", {
    headers: { authorization: isv.auth },
    data: { phone: "+14155550123" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).id as string;
}

test("a merchant onboards inside the ISV's page, documents included, without leaving it: events reach the host page", async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: [hostOrigin] } });
  const merchantId = await newMerchant(request, isv);
  await startHost(isv);
  await page.goto(`${hostOrigin}/?merchant=${merchantId}`);

  const frame = await componentFrame(page, "onb-onboarding", /^\/onboarding\/business$/);
  // The frame has no header of its own; the host page's colour, font and corners are the frame's.
  await expect(frame.getByTestId("brand-name")).toHaveCount(0);
  const button = frame.getByRole("button", { name: "Save and continue" });
  expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(124, 45, 18)");
  expect(await button.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe("14px");
  expect(await button.evaluate((el) => getComputedStyle(el).fontFamily)).toContain("Georgia");
  // Sized to its content: no scrollbar inside the frame.
  await expect
    .poll(() => frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight))
    .toBeLessThanOrEqual(1);
  await shots(page, "embed-onboarding-business");
  await expectAxeClean(page);

  const app = application();
  // An owner whose identity the data cannot confirm: underwriting asks for a document.
  app.owner_one.date_of_birth = "1902-01-01";
  await fillBusiness(frame);
  await save(frame);
  await nextStep(frame, "owners");
  await fillOwner(frame, 1, app.owner_one);
  await frame.getByRole("button", { name: "Add an owner" }).click();
  await fillOwner(frame, 2, app.owner_two);
  await save(frame);
  await nextStep(frame, "bank");
  await frame.getByLabel("Account holder name").fill(app.bank_account.account_holder_name);
  await frame.getByLabel("Account number", { exact: true }).fill(app.bank_account.account_number);
  await frame.getByLabel("Confirm account number").fill(app.bank_account.account_number);
  await frame.getByLabel("Routing number").fill(app.bank_account.routing_number);
  await frame.getByLabel("Bank name").fill(app.bank_account.bank_name);
  await save(frame);
  await nextStep(frame, "product");
  await frame.getByLabel("What do you sell?").fill(app.main_product.description);
  await frame.getByLabel("Website").fill(app.main_product.website);
  await frame.getByLabel("Category", { exact: true }).selectOption("Restaurants");
  await frame.getByLabel("Subcategory").selectOption("Restaurants");
  await save(frame);
  await nextStep(frame, "sales");
  const sales = app.current_sales;
  await frame.getByLabel("Average monthly card sales ($)").fill(sales.average_monthly_in_credit_card);
  await frame.getByLabel("Average sale amount ($)").fill(sales.average_ticket_value);
  await frame.getByLabel("Largest single sale so far ($)").fill(sales.highest_amount_to_date);
  await frame.getByLabel("Average monthly American Express sales ($)").fill(sales.average_amex_monthly_sales);
  await frame.getByLabel("Average American Express sale amount ($)").fill(sales.average_amex_ticket_value);
  await frame.getByLabel("In person, card present (%)").fill("70");
  await frame.getByLabel("Online (%)").fill("20");
  await frame.getByLabel("Keyed in (%)").fill("10");
  await save(frame);
  await nextStep(frame, "device");
  await frame.getByLabel(/PAX A920 Pro/).check();
  await save(frame);
  await nextStep(frame, "review");
  await frame.getByRole("link", { name: "Continue to the agreement" }).click();
  await nextStep(frame, "agreement");
  // The agreement's PDF downloads from inside the frame: no tab.
  const download = page.waitForEvent("download");
  await frame.getByRole("link", { name: "Download the agreement to read it (PDF)" }).click();
  expect((await download).suggestedFilename()).toBe(`merchant-agreement-${merchantId}.pdf`);
  await shots(page, "embed-onboarding-agreement");
  await frame.getByLabel("Type your full name to sign").fill("Mei Chen");
  await frame.getByRole("button", { name: "Sign and submit application" }).click();

  // Submitted; underwriting asks for the owner's identity document, in the frame.
  await frame.waitForURL(/\/onboarding\/complete/);
  await expect(frame.getByRole("heading", { name: "A few more details are needed" })).toBeVisible({ timeout: 20_000 });
  // Answered here, in the frame (not "we have e-mailed you a link").
  await expect(frame.getByText("Press Continue to give them here.")).toBeVisible();
  await expect(frame.getByText(/e-mailed/)).toHaveCount(0);
  await waitForHydration(frame);
  await frame.getByRole("link", { name: "Continue" }).click();
  await nextStep(frame, "owners");
  const panel = frame.getByRole("region", { name: "Identity document: Mei Chen" });
  await expect(panel).toBeVisible();
  const licence = await licencePng();
  await frame
    .getByTestId("document-file")
    .setInputFiles({ name: "licence.png", mimeType: "image/png", buffer: licence });
  await shots(page, "embed-onboarding-document");
  await frame.getByRole("button", { name: "Send document" }).click();
  await frame.waitForURL(/\/onboarding\/complete/, { timeout: 30_000 });
  await expect(frame.getByRole("heading", { name: "Application approved" })).toBeVisible({ timeout: 20_000 });
  // Inside the ISV's own app: not "<ISV> will be in touch".
  await expect(frame.getByText("You can start taking payments right here.")).toBeVisible();
  await expect(frame.getByText(/will be in touch/)).toHaveCount(0);
  await waitForHydration(frame);
  await shots(page, "embed-onboarding-approved");
  await frame.getByRole("button", { name: "Continue" }).click();

  // Never a new page or tab: the ISV's page is still the only one, still on its origin.
  expect(context.pages()).toHaveLength(1);
  expect(new URL(page.url()).origin).toBe(hostOrigin);
  const seen = await events(page);
  const steps = seen.filter((e) => e.startsWith("onb-step-change")).map((e) => JSON.parse(e.slice(16)).step);
  expect(steps).toEqual(["business", "owners", "bank", "product", "sales", "device", "review", "agreement", "owners"]);
  const submitted = seen.filter((e) => e.startsWith("onb-submitted"));
  expect(submitted).toHaveLength(1);
  expect(seen.at(-1)).toBe('onb-exit {"component":"onboarding","reason":"done","status":"APPROVED"}');
  expect(seen.filter((e) => e.startsWith("onb-load-error"))).toEqual([]);
  const merchant = await (
    await request.get(`/v1/merchants/${merchantId}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(merchant.lead_onboarding_status).toBe("APPROVED");

  // Mounted again later: the decision shows, and no new onb-submitted (nothing was submitted now).
  await page.reload();
  const again = await componentFrame(page, "onb-onboarding", /^\/onboarding\/complete$/);
  await expect(again.getByRole("heading", { name: "Application approved" })).toBeVisible();
  await expect.poll(async () => (await events(page)).filter((e) => e.startsWith("onb-ready"))).toHaveLength(1);
  expect((await events(page)).filter((e) => !e.startsWith("onb-ready"))).toEqual([]);
});

test("the payments component shows the merchant's paid charge and refunds it; another merchant's charge is not found in it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: [hostOrigin] } });
  const merchant = await approvedMerchant(request, isv);
  const sibling = await approvedMerchant(request, isv);
  const chargeId = await paidCharge(request, isv, merchant, 2599);
  const siblingCharge = await paidCharge(request, isv, sibling, 1200);
  await startHost(isv);
  await page.goto(`${hostOrigin}/?merchant=${merchant.id}&show=payments`);
  const frame = await componentFrame(page, "onb-payments", /^\/home\/payments$/);
  const rows = frame.getByTestId("payments").getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("$25.99");
  await shots(page, "embed-payments");
  await expectAxeClean(page);
  // The loader takes messages from its own frame on the service's origin only: the same messages posted
  // by the host page itself, or by a frame of another origin, change nothing and reach no listener.
  const heightBefore = await page.locator("onb-payments iframe").evaluate((el) => (el as HTMLElement).style.height);
  const forged = [
    { source: "onb-frame", type: "submitted", status: "APPROVED" },
    { source: "onb-frame", type: "exit", reason: "done", status: "APPROVED" },
    { source: "onb-frame", type: "resize", height: 7 },
    { source: "onb-frame", type: "error", code: "load_failed", message: "forged" },
  ];
  await page.evaluate((messages) => {
    for (const m of messages) window.postMessage(m, "*");
    const other = document.createElement("iframe");
    other.srcdoc = `<script>for (const m of ${JSON.stringify(messages)}) parent.postMessage(m, "*")</script>`;
    document.body.append(other);
  }, forged);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  expect((await events(page)).filter((e) => !e.startsWith("onb-ready"))).toEqual([]);
  expect(await page.locator("onb-payments iframe").evaluate((el) => (el as HTMLElement).style.height)).toBe(
    heightBefore,
  );
  await expect(page.locator("onb-payments iframe")).toBeVisible();
  // Every page in the frame may be framed by this host page's origin alone.
  const csp = await frame.evaluate(async () => (await fetch(location.href)).headers.get("content-security-policy"));
  expect(csp).toContain(`frame-ancestors ${hostOrigin};`);
  await rows.nth(1).getByRole("link").first().click();
  await frame.waitForURL(new RegExp(`/home/payments/${chargeId}$`));
  await waitForHydration(frame);
  await frame.getByLabel("Amount to refund (USD)").fill("10");
  await frame.getByRole("button", { name: "Review the refund" }).click();
  // The refund's server action, kept to be sent again below from a frame without the refunds feature.
  const action = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await frame.getByRole("button", { name: "Refund $10.00" }).click();
  const sent = await action;
  await expect(frame.getByRole("status")).toHaveText("Refunded $10.00.");
  const refunded = async () =>
    (await (await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })).json())
      .amount_refunded;
  expect(await refunded()).toBe(1000);
  await shots(page, "embed-payments-refunded");

  // An account session whose payments component has refunds turned off: the page offers no refund,
  // and the same refund action sent anyway refunds nothing.
  const noRefunds = await (
    await request.post("/v1/account_sessions", {
      headers: { authorization: isv.auth },
      data: {
        merchant_id: merchant.id,
        components: { payments: { enabled: true, features: { refunds: false } } },
      },
    })
  ).json();
  const exchanged = await frame.evaluate(
    async ([secret, parent]) =>
      (
        await fetch("/embed/v1/sessions", {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_secret: secret, component: "payments", parent_origin: parent }),
        })
      ).status,
    [noRefunds.client_secret, hostOrigin] as const,
  );
  expect(exchanged).toBe(200);
  await frame.goto(`${serviceOrigin}/home/payments/${chargeId}`);
  await waitForHydration(frame);
  await expect(frame.getByText("$25.99").first()).toBeVisible();
  await expect(frame.getByLabel("Amount to refund (USD)")).toHaveCount(0);
  await frame.evaluate(async ([url, headers, body]) => void (await fetch(url, { method: "POST", headers, body })), [
    sent.url(),
    Object.fromEntries(
      Object.entries(sent.headers()).filter(([name]) => name === "next-action" || name.startsWith("content-type")),
    ),
    sent.postData() ?? "",
  ] as const);
  expect(await refunded()).toBe(1000);
  const refunds = await (
    await request.get(`/v1/refunds?charge_id=${chargeId}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(refunds.data).toHaveLength(1);
  // Merchant A's frame never shows merchant B's charge, nor a page outside its component.
  await frame.goto(`${serviceOrigin}/home/payments/${siblingCharge}`);
  await expect(frame.getByRole("heading", { name: "This page could not be found." })).toBeVisible();
  await frame.goto(`${serviceOrigin}/home/settings`);
  await expect(frame.getByRole("heading", { name: "Not available here" })).toBeVisible();

  // The frame's cookie lets the ISV's page frame the components' pages alone: the sign-in pages and
  // the dashboard keep frame-ancestors 'none' (so they cannot be framed for clickjacking).
  const frameCookie = (await page.context().cookies()).find((c) => c.name === "onb_embed_payments");
  expect(frameCookie).toBeDefined();
  const withCookie = { cookie: `${frameCookie!.name}=${frameCookie!.value}` };
  const cspOf = async (path: string) =>
    (await request.get(`${serviceOrigin}${path}`, { headers: withCookie, maxRedirects: 0 })).headers()[
      "content-security-policy"
    ];
  for (const path of ["/home/sign-in", "/sign-in", "/dashboard", "/home/settings"])
    expect(await cspOf(path), path).toContain("frame-ancestors 'none'");
  expect(await cspOf("/home/payments")).toContain(`frame-ancestors ${hostOrigin}`);

  // Inside the component, the merchant's identity and bank documents are not reachable: dispute evidence only.
  const uploaded = await request.post("/v1/files", {
    headers: { authorization: isv.auth },
    multipart: {
      purpose: "additional_verification",
      merchant_id: merchant.id,
      file: {
        name: "articles.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.4\n% articles\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"),
      },
    },
  });
  expect(uploaded.status()).toBe(200);
  const fileId = (await uploaded.json()).id as string;
  await frame.goto(`${serviceOrigin}/home/payments`);
  expect(await frame.evaluate(async (id) => (await fetch(`/home/files/${id}`)).status, fileId)).toBe(404);

  // The example page offers every component, not only onboarding and payments: its Payouts view
  // mounts <onb-payouts>, which shows the merchant's payouts page.
  await page.getByRole("navigation", { name: "Views" }).getByRole("button", { name: "Payouts" }).click();
  const payouts = await componentFrame(page, "onb-payouts", /^\/home\/payouts$/);
  await expect(payouts.getByTestId("balance")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Views" }).getByRole("button")).toHaveCount(6);
});

test("a host page on an origin the ISV does not list gets onb-load-error, and the frame shows nothing", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: ["https://app.acme.example"] } });
  const merchantId = await newMerchant(request, isv);
  await startHost(isv);
  await page.goto(`${hostOrigin}/?merchant=${merchantId}`);
  await expect
    .poll(async () => (await events(page)).filter((e) => e.startsWith("onb-load-error")))
    .toEqual([
      'onb-load-error {"component":"onboarding","code":"frame_blocked","message":"The component\'s frame did not load: is this page\'s origin in the ISV\'s allowed origins?"}',
    ]);
  // The browser refused the frame (CSP frame-ancestors): no page of the service was shown in it, the
  // empty frame is hidden and the host page says so in its own words.
  expect(page.frames().some((f) => f.url().startsWith(`${serviceOrigin}/onboarding`))).toBe(false);
  await expect(page.locator("onb-onboarding iframe")).toBeHidden();
  await expect(page.getByRole("alert")).toHaveText(
    "Payments setup could not load (frame_blocked). Please try again later.",
  );
  await shots(page, "embed-load-error");
});

test("a spent client secret, and a frame session past its hour: renewed through fetchClientSecret when the page gives one, onb-load-error when not; in Spanish", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: [hostOrigin] } });
  const merchant = await approvedMerchant(request, isv);
  await startHost(isv);
  await page.goto(`${hostOrigin}/?merchant=${merchant.id}&show=payments&locale=es`);
  const frame = await componentFrame(page, "onb-payments", /^\/home\/payments$/);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveText("Pagos");
  // A secret already exchanged (the first frame spent it), given again as the attribute.
  const spent = await (
    await request.post("/v1/account_sessions", {
      headers: { authorization: isv.auth },
      data: { merchant_id: merchant.id, components: { payments: { enabled: true } } },
    })
  ).json();
  const exchanged = await request.post("/embed/v1/sessions", {
    data: { client_secret: spent.client_secret, component: "payments", parent_origin: hostOrigin },
  });
  expect(exchanged.status()).toBe(200);
  const mount = (withFetch: boolean) =>
    page.evaluate(
      ({ secret, withFetch }) => {
        const el = document.createElement("onb-payments") as HTMLElement & {
          fetchClientSecret?: () => Promise<string>;
        };
        el.id = withFetch ? "renewed" : "stuck";
        el.setAttribute("client-secret", secret);
        el.setAttribute("locale", "es");
        el.addEventListener("onb-load-error", (e) => el.setAttribute("data-error", (e as CustomEvent).detail.code));
        let ready = 0;
        el.addEventListener("onb-ready", () => el.setAttribute("data-ready", String(++ready)));
        let asked = 0;
        if (withFetch)
          el.fetchClientSecret = async () => {
            el.setAttribute("data-asked", String(++asked));
            const res = await fetch("/account-session", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                component: "payments",
                merchant_id: new URLSearchParams(location.search).get("merchant"),
              }),
            });
            return (await res.json()).client_secret;
          };
        document.body.append(el);
      },
      { secret: spent.client_secret as string, withFetch },
    );
  await mount(false);
  await expect(page.locator("#stuck")).toHaveAttribute("data-error", "invalid_secret");
  await mount(true);
  await expect(page.locator("#renewed")).toHaveAttribute("data-ready", "1");
  await expect(page.locator("#renewed")).not.toHaveAttribute("data-error");

  // A frame session past its hour: the browser's partitioned session cookie is replaced by its token
  // re-signed as having ended a minute ago (what the browser holds after the hour), and the merchant
  // moves to another page in the frame. The frame tells the loader (session_expired), which asks
  // fetchClientSecret for a new secret and starts over: the component shows again, no error.
  const renewed = page.locator("#renewed");
  await expect(renewed).toHaveAttribute("data-asked", "1");
  const { jwt_secret } = JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "secrets.json"), "utf8"));
  const held = (await page.context().cookies(serviceOrigin)).filter(
    (c) => c.name === "onb_embed_payments" && c.partitionKey,
  );
  expect(held).toHaveLength(1);
  const now = Math.floor(Date.now() / 1000);
  const aged = await new SignJWT({ ...decodeJwt(held[0]!.value), iat: now - 3660, exp: now - 60 })
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(jwt_secret));
  await page.context().addCookies([{ ...held[0]!, value: aged }]);
  const before = await renewed.locator("iframe").elementHandle();
  await (await before!.contentFrame())!.evaluate(() => location.reload());
  await expect(renewed).toHaveAttribute("data-asked", "2", { timeout: 30_000 });
  await expect(renewed).toHaveAttribute("data-ready", "2");
  await expect(renewed).not.toHaveAttribute("data-error");
  const after = await renewed.locator("iframe").elementHandle();
  expect(await after!.evaluate((el, old) => el !== old, before)).toBe(true);
  await expect((await after!.contentFrame())!.getByRole("heading", { level: 1 })).toHaveText("Pagos");
});

test("payouts, disputes, statements and the notification banner, each in its own frame, each showing its own page only", async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: [hostOrigin] } });
  const merchant = await approvedMerchant(request, isv);
  const headers = { authorization: isv.auth };
  await paidCharge(request, isv, merchant, 4200);
  // The sandbox's disputed card: disputed once its charge settles.
  const disputed = await paidCharge(request, isv, merchant, 3000, "4000000000000259");
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  await expect
    .poll(async () => (await (await request.get(`/v1/charges/${disputed}`, { headers })).json()).dispute_id, {
      timeout: 20_000,
    })
    .toMatch(/^dp_/);
  const period = new Date().toISOString().slice(0, 7);
  expect(
    (
      await request.post("/v1/test_helpers/statements/generate", {
        headers,
        data: { merchant_id: merchant.id, period },
      })
    ).status(),
  ).toBe(200);
  await startHost(isv);
  await page.goto(`${hostOrigin}/?merchant=${merchant.id}&show=payments`);
  await componentFrame(page, "onb-payments", /^\/home\/payments$/);
  await mountComponent(page, "onb-payouts", "payouts");
  await mountComponent(page, "onb-disputes", "disputes");
  await mountComponent(page, "onb-statements", "statements");
  await mountComponent(page, "onb-notification-banner", "notification_banner");

  const payouts = await componentFrame(page, "onb-payouts", /^\/home\/payouts$/);
  await expect(payouts.getByRole("heading", { level: 1 })).toHaveText("Payouts");
  // Said to screen readers, not shown: the host page has its own heading above the component.
  expect(
    await payouts.getByRole("heading", { level: 1 }).evaluate((h) => h.getBoundingClientRect().height),
  ).toBeLessThanOrEqual(1);
  await expect(payouts.getByTestId("next-payout")).toBeVisible();
  const disputes = await componentFrame(page, "onb-disputes", /^\/home\/disputes$/);
  await expect(disputes.getByRole("heading", { level: 1 })).toHaveText("Disputes");
  await expect(disputes.getByTestId(/^dispute-dp_/)).toHaveCount(1);
  await expect(disputes.getByTestId(/^dispute-dp_/)).toContainText("$30.00");
  const banner = await componentFrame(page, "onb-notification-banner", /^\/home\/banner$/);
  await expect(banner.getByRole("note")).toHaveCount(1);
  await expect(banner.getByRole("note")).toContainText("$30.00");
  const statements = await componentFrame(page, "onb-statements", /^\/home\/statements$/);
  // The statement downloads from inside its frame: no tab.
  const download = page.waitForEvent("download");
  await statements.getByRole("link", { name: /PDF/ }).first().click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
  expect(context.pages()).toHaveLength(1);
  for (const id of ["payouts", "disputes", "statements", "notification_banner"])
    await expect(page.locator(`#${id}`)).not.toHaveAttribute("data-error");
  await shots(page, "embed-components");
  await expectAxeClean(page);
  // Nothing left to say (the dispute accepted): the banner takes no room on the host page.
  const disputeId = await disputes.getByTestId(/^dispute-dp_/).getAttribute("data-testid");
  expect(
    (
      await request.post(`/v1/disputes/${disputeId!.replace("dispute-", "")}/accept`, {
        headers: { authorization: isv.auth },
      })
    ).status(),
  ).toBe(200);
  await banner.goto(`${serviceOrigin}/home/banner`);
  await expect
    .poll(() => page.locator("onb-notification-banner iframe").evaluate((f) => f.getBoundingClientRect().height))
    .toBe(0);
  // A page of no component (the home's settings) opens in none of the frames, even by its address.
  await statements.goto(`${serviceOrigin}/home/settings`);
  await expect(statements.getByRole("heading", { name: "Not available here" })).toBeVisible();
});

/** Mounts one more component on the host page, its secret from the page's own backend. */
async function mountComponent(page: Page, tag: string, component: string) {
  await page.evaluate(
    ({ tag, component }) => {
      const el = document.createElement(tag) as HTMLElement & { fetchClientSecret?: () => Promise<string> };
      el.id = component;
      el.addEventListener("onb-load-error", (e) => el.setAttribute("data-error", (e as CustomEvent).detail.code));
      el.fetchClientSecret = async () =>
        (
          await (
            await fetch("/account-session", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ component, merchant_id: new URLSearchParams(location.search).get("merchant") }),
            })
          ).json()
        ).client_secret;
      document.querySelector("main")!.append(el);
    },
    { tag, component },
  );
}
