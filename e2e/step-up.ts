import { operatorOutbox } from "./helpers";
import { expect, type Page } from "./test";

/**
 * The step-up before a bank account or contact change: a session the ISV's login link opened may
 * not make one, so the settings page offers a sign-in link to the merchant's own e-mail; opening it
 * (from the outbox, as the merchant would from its mail) signs in anew, and the forms appear.
 */
export async function stepUp(page: Page, isv: { account_id: string }, merchantId: string) {
  // The merchant's inbox (the operator's outbox: the ISV's hides the link, or it could pass the step-up itself).
  const signInMails = async () =>
    operatorOutbox(isv.account_id).filter((m) => m.merchant_id === merchantId && m.kind === "home_sign_in");
  const before = new Set((await signInMails()).map((m) => m.id));
  await expect(page.getByTestId("step-up")).toContainText("Confirm it’s you");
  await expect(page.getByLabel("Account number again")).toBeHidden();
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByTestId("step-up").getByRole("status")).toHaveText(/^Sent\./);
  let mail: any;
  await expect
    .poll(async () => {
      mail = (await signInMails()).find((m) => !before.has(m.id));
      return Boolean(mail);
    })
    .toBe(true);
  await page.goto(new URL(mail.text.match(/(http\S+\/home\/login\/\S+)/)[1]).pathname);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/home/settings");
  await expect(page.getByTestId("step-up")).toHaveCount(0);
}
