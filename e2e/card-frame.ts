import { expect, type Page } from "./test";

// The tokenizer's card frame in a journey: wait for it, type a card, press Pay (the hosted pay
// pages and the merchant's home take cards through the same frame).

/**
 * The card frame once its script runs: typed into before, its first resize would move the page's
 * Pay button under the pointer (a journey's click then lands beside it).
 */
export async function readyFrame(page: Page, kind: "card" | "bank_account" = "card") {
  const frame = page.frameLocator('[data-testid="tokenizer-frame"]');
  await expect(frame.locator(`form[data-kind="${kind}"][data-ready="true"]`)).toBeAttached();
  await frameHeightApplied(page);
  return frame;
}

/**
 * Clicks the page's Pay button once the page has taken the card frame's last height: the frame
 * (another origin, another process) shows and hides its field messages as it is typed into and tells
 * the page its new height a moment later; a click computed before the page grows lands on the frame.
 */
export async function clickPay(page: Page, name: string | RegExp) {
  const button = page.getByRole("button", { name });
  await frameHeightApplied(page);
  // From the keyboard (focus, Enter), as a keyboard user pays: a pointer click is routed by where
  // Chromium drew the frames last, and the card frame (another origin's process) drawn a moment ago
  // over the button's new place (after a scroll, or the frame growing or shrinking) takes a click
  // aimed at the button in a headless run faster than any hand.
  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
}

/**
 * The page shows the frame at its content's height (the frame's resize message applied), and that
 * height held for two reads in a row: the frame is another origin's process, its content (a bank's
 * name found, an error said) can grow it a moment later, and a click aimed at the button below
 * would land in the frame.
 */
export async function frameHeightApplied(page: Page) {
  const form = page.frameLocator('[data-testid="tokenizer-frame"]').locator("form");
  let last = -1;
  await expect
    .poll(
      async () => {
        const outer = (await page.getByTestId("tokenizer-frame").boundingBox())?.height ?? 0;
        const inner = await form.evaluate((f) => f.getBoundingClientRect().height);
        const steady = Math.abs(outer - (Math.ceil(inner) + 4)) <= 1 && outer === last;
        last = outer;
        return steady;
      },
      { intervals: [150] },
    )
    .toBe(true);
}

export async function fillCard(page: Page, number: string, exp = "12 / 34", cvc = "123") {
  const frame = await readyFrame(page);
  await frame.getByLabel(/Card number|Número de tarjeta/).fill(number);
  await frame.getByLabel(/Expiry date|Fecha de vencimiento/).fill(exp);
  await frame.getByLabel(/Security code|Código de seguridad/).fill(cvc);
}
