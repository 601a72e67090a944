import type http from "node:http";

import { startReactExample } from "../examples/embed-react/server.mjs";
import {
  approvedMerchant,
  componentFrame as sharedComponentFrame,
  createIsvWithCli,
  expectAxeClean,
  paidCharge,
  setAccount,
} from "./helpers";
import { expect, type Page, test } from "./test";

// The React package (packages/react) on an ISV's React page of another origin
// (examples/embed-react, http://localhost:<port>), the service on 127.0.0.1: the provider loads the
// loader, each component asks the page's backend for its own secret, events reach the props.

const HOST_PORT = 4330 + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
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

/** The component's frame (the service's origin) showing `path`, hydrated. */
const componentFrame = (page: Page, element: string, path: RegExp) =>
  sharedComponentFrame(page, element, path, serviceOrigin);

const events = (page: Page) => page.getByRole("list", { name: "Events" }).locator("li").allTextContents();

test("the React components on an ISV's React page: secrets from its backend, its look, events as props, both languages", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const isv = createIsvWithCli("Acme Salon Software");
  await setAccount(request, isv, { settings: { embed_allowed_origins: [hostOrigin] } });
  const merchant = await approvedMerchant(request, isv);
  await paidCharge(request, isv, merchant, 3140);
  host = await startReactExample({
    port: HOST_PORT,
    host: "localhost",
    api: serviceOrigin,
    accountSid: isv.account_sid,
    secretKey: isv.secret_key,
  });
  const secretsAsked: string[] = [];
  page.on("request", (r) => {
    if (r.url() === `${hostOrigin}/account-session`) secretsAsked.push(JSON.parse(r.postData() ?? "{}").component);
  });

  await page.goto(`${hostOrigin}/?merchant=${merchant.id}&show=payments,statements`);
  const payments = await componentFrame(page, "onb-payments", /^\/home\/payments$/);
  const rows = payments.getByTestId("payments").getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("$31.40");
  const statements = await componentFrame(page, "onb-statements", /^\/home\/statements$/);
  await expect(statements.getByRole("heading", { level: 1 })).toHaveText("Monthly statements");
  // Each component asked the page's backend for its own secret, once.
  expect(secretsAsked.sort()).toEqual(["payments", "statements"]);
  // The provider loaded the service's loader once.
  expect(await page.locator(`script[src="${serviceOrigin}/embed/v1.js"]`).count()).toBe(1);
  // onReady reached the page's own React state.
  await expect
    .poll(() => events(page))
    .toEqual(
      expect.arrayContaining([
        `onb-ready {"component":"payments","path":"/home/payments"}`,
        `onb-ready {"component":"statements","path":"/home/statements"}`,
      ]),
    );
  // The appearance prop is the element's CSS custom properties, which the loader hands the frame.
  const style = await page
    .locator("onb-payments")
    .evaluate((el) => [
      getComputedStyle(el).getPropertyValue("--onb-color-primary").trim(),
      getComputedStyle(el).getPropertyValue("--onb-border-radius").trim(),
    ]);
  expect(style).toEqual(["#0f766e", "12px"]);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // Each frame seen in turn (Chromium lays out no offscreen cross-origin frame) until it has taken
    // its content's height.
    for (const frame of [payments, statements]) {
      const element = await frame.frameElement();
      await element.scrollIntoViewIfNeeded();
      await expect
        .poll(async () => {
          const content = await frame.evaluate(() =>
            Math.ceil(document.querySelector("[data-embed-root]")?.getBoundingClientRect().height ?? 0),
          );
          return content > 0 && content === (await element.evaluate((el) => (el as HTMLElement).clientHeight));
        })
        .toBe(true);
    }
    await page.screenshot({ path: `test-results/screens/embed-react-${width}.png`, fullPage: true });
  }
  await expectAxeClean(page);

  // In Spanish, from the provider's locale.
  await page.goto(`${hostOrigin}/?merchant=${merchant.id}&show=payments&locale=es`);
  const pagos = await componentFrame(page, "onb-payments", /^\/home\/payments$/);
  await expect(pagos.getByRole("heading", { level: 1 })).toHaveText("Pagos");

  // A secret the backend cannot make (a merchant of no one): onLoadError, and no frame on the page.
  await page.goto(`${hostOrigin}/?merchant=mer_unknown0000000000000&show=payments`);
  await expect
    .poll(() => events(page))
    .toEqual([expect.stringMatching(/^onb-load-error \{"component":"payments","code":"fetch_client_secret_failed"/)]);
  await expect(page.locator("onb-payments iframe")).toHaveCount(0);
});
