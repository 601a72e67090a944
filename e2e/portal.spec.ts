import {
  application,
  createIsvWithCli,
  expectAxeClean,
  portalPathFromOutbox,
  submittedThroughSession,
} from "./helpers";
import { expect, test } from "./test";

test("a merchant with a bad routing number fixes it in the portal from the e-mail's link and is approved", async ({
  page,
  request,
}) => {
  const isv = createIsvWithCli("Portal POS");
  const headers = { authorization: isv.auth };
  const app = application();
  app.bank_account.routing_number = "021000022"; // fails the ABA checksum
  // The first submission goes through the session API (the wizard itself would refuse the number).
  const merchant = { id: await submittedThroughSession(request, isv, app) };
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/merchants/${merchant.id}`, { headers })).json()).lead_onboarding_status,
      { timeout: 10_000 },
    )
    .toBe("IN_PROGRESS");
  const portalPath = await portalPathFromOutbox(request, isv, merchant.id);

  await page.goto(portalPath);
  await expect(page).toHaveURL(/\/onboarding\/bank$/);
  await expect(page.getByRole("note")).toContainText("The routing number does not pass the bank's check");
  await expect(page.getByLabel("Routing number")).toBeVisible();
  await expect(page.getByText("The routing number does not pass the bank's check").nth(1)).toBeVisible(); // beside the field
  await expect(page.getByLabel("Bank name")).toHaveCount(0);
  await expect(page.getByLabel("Account number", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Business" })).toHaveCount(0);
  // The counter counts the steps shown: the bank account, the review and the signature.
  await expect(page.getByText("Step 1 of 3")).toBeVisible();
  await expect(page.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveCount(3);
  await expectAxeClean(page);
  await page.getByLabel("Routing number").fill("021000021");
  await page.getByRole("button", { name: "Save and continue" }).click();

  await expect(page).toHaveURL(/\/onboarding\/agreement$/);
  // The corrected step stays listed (done): the counter moves on, it does not jump to every step.
  await expect(page.getByText("Step 3 of 3")).toBeVisible();
  await expect(page.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByRole("link", { name: "✓ Bank account" })).toBeVisible();
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
