import { type BrowserContext, type Frame, type Page, test as base } from "@playwright/test";

export type { APIRequestContext, Page } from "@playwright/test";
export { expect } from "@playwright/test";

/**
 * The journeys' `test`: every page, in every context (the default one and those a journey opens
 * with `browser.newContext()`), waits after each navigation (goto, reload, back, forward) until React
 * has hydrated it. A click that lands before hydration is lost on a loaded machine; the root layout's
 * providers set `data-hydrated` on <html> once they run (app/providers.tsx). Pages without Next's
 * scripts (an API answer, an ISV's return URL) are not waited for.
 */
export async function waitForHydration(page: Page | Frame) {
  await page.waitForFunction(
    () => {
      // Null for a moment in a document that has just replaced another (no <html> parsed yet): not yet.
      const root = document.documentElement as HTMLElement | null;
      return (
        root !== null && (root.dataset.hydrated === "1" || !document.querySelector('script[src*="/_next/static/"]'))
      );
    },
    null,
    { timeout: 30_000 },
  );
}

// E2E_SCREENSHOTS=0 (CI's second pass, on PostgreSQL): screenshots are not taken. They are pictures
// to look at, never compared, and the first pass already wrote the same pages.
const screenshots = process.env.E2E_SCREENSHOTS !== "0";

const patched = new WeakSet<Page>();
function hydrating(page: Page) {
  if (patched.has(page)) return page;
  patched.add(page);
  if (!screenshots) page.screenshot = async () => Buffer.alloc(0);
  for (const name of ["goto", "reload", "goBack", "goForward"] as const) {
    const original = page[name].bind(page) as (...args: unknown[]) => Promise<unknown>;
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const response = await original(...args);
      await waitForHydration(page);
      return response;
    };
  }
  return page;
}
const watch = (context: BrowserContext) => {
  context.on("page", hydrating);
  for (const page of context.pages()) hydrating(page);
  return context;
};

export const test = base.extend({
  context: async ({ context }, use) => {
    await use(watch(context));
  },
  page: async ({ page }, use) => {
    await use(hydrating(page));
  },
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => watch(await newContext(...args));
      await use(browser);
    },
    { scope: "worker" },
  ],
});
