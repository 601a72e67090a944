import { application, createIsvWithCli, expectAxeClean } from "./helpers";
import { expect, test } from "./test";

test("a merchant with a bad routing number fixes it in the portal from the e-mail's link and is approved", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Portal POS");
  const headers = { authorization: isv.auth };
  const app = application();
  app.bank_account.routing_number = "021000022"; // fails the ABA checksum
  const merchant = await (
    await request.post("/v1/merchants", { headers, data: { phone: "+14155550123", merchant: app } })
  ).json();
  const link = await (
    await request.post("/v1/onboarding_links", {
      headers,
      data: { merchant_id: merchant.id, type: "account_onboarding" },
    })
  ).json();
  // The first submission goes through the session API (the wizard itself would refuse the number).
  const opened = await request.get(new URL(link.url).pathname, { maxRedirects: 0 });
  const session = {
    authorization: `Bearer ${opened.headers()["set-cookie"]!.match(/onboarding_session=([^;]+)/)![1]}`,
  };
  await request.patch("/v1/onboarding/session", { headers: session, data: { device: { catalog_id: "pax-a920" } } });
  await request.post("/v1/onboarding/session/agreement", { headers: session, data: { name: "Mei Chen" } });
  expect((await request.post("/v1/onboarding/session/submit", { headers: session })).status()).toBe(200);

  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).lead_onboarding_status,
      { timeout: 10_000 },
    )
    .toBe("IN_PROGRESS");
  const outbox = await (await request.get("/v1/test_helpers/outbox", { headers })).json();
  const mail = outbox.data.find(
    (m: any) => m.merchant_id === merchant.id && m.kind === "information_requested.merchant",
  );
  const portalPath = new URL(mail.text.match(/(http\S+\/onboard\/\S+)/)[1]).pathname;

  await page.goto(portalPath);
  await expect(page).toHaveURL(/\/onboarding\/bank$/);
  await expect(page.getByRole("note")).toContainText("The routing number does not pass the bank's check");
  await expect(page.getByLabel("Routing number")).toBeVisible();
  await expect(page.getByText("The routing number does not pass the bank's check").nth(1)).toBeVisible(); // beside the field
  await expect(page.getByLabel("Bank name")).toHaveCount(0);
  await expect(page.getByLabel("Account number", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Business" })).toHaveCount(0);
  await expectAxeClean(page);
  await page.getByLabel("Routing number").fill("021000021");
  await page.getByRole("button", { name: "Save and continue" }).click();

  await expect(page).toHaveURL(/\/onboarding\/agreement$/);
  await page.getByLabel("Type your full name to sign").fill("Mei Chen");
  await page.getByRole("button", { name: "Sign and submit application" }).click();
  await expect(page.getByRole("heading", { name: /^Application (submitted|approved)$/ })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).lead_onboarding_status,
      { timeout: 10_000 },
    )
    .toBe("APPROVED");
});
