import { execFileSync } from "node:child_process";

import { Secret, TOTP } from "otpauth";
import sharp from "sharp";

import { cliBundlePath } from "../scripts/cli-bundle";

/** A fresh ISV made the way an operator makes one: the CLI (compiled once, scripts/cli-bundle.ts), while the server runs. */
export function createIsvWithCli(name = "E2E ISV") {
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const password = "e2e-password-123";
  const stdout = execFileSync(
    process.execPath,
    [cliBundlePath("e2e"), "isv", "create", "--name", name, "--email", email, "--password", password, "--json"],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
      encoding: "utf8",
    },
  );
  const created = JSON.parse(stdout) as {
    account_id: string;
    account_sid: string;
    secret_key: string;
    user_email: string;
  };
  return {
    ...created,
    password,
    auth: `Basic ${Buffer.from(`${created.account_sid}:${created.secret_key}`).toString("base64")}`,
  };
}

/**
 * The e-mails of an ISV's account as the operator reads them (the CLI): in full, the links sent to
 * its merchants included (the ISV's own outbox hides those, as a merchant's inbox is its own).
 */
export function operatorOutbox(accountId: string) {
  const stdout = execFileSync(
    process.execPath,
    [cliBundlePath("e2e"), "outbox", "list", "--account", accountId, "--json"],
    { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR }, encoding: "utf8" },
  );
  return JSON.parse(stdout) as {
    id: string;
    kind: string;
    to: string;
    merchant_id: string | null;
    text: string;
    html: string;
    subject: string;
    locale: string;
  }[];
}

import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Frame, Page } from "@playwright/test";
import { expect } from "@playwright/test";

import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { waitForHydration } from "./test";

export const application = () => structuredClone(example) as any;

type Isv = ReturnType<typeof createIsvWithCli>;

/** A merchant and an onboarding link for it, made through the API as an ISV would. */
export async function merchantWithLink(
  request: APIRequestContext,
  isv: Isv,
  options: { merchant?: unknown; link?: Record<string, unknown>; phone?: string } = {},
) {
  const merchant = await (
    await request.post("/v1/merchants", {
      headers: { authorization: isv.auth },
      data: { phone: options.phone ?? "+14155550123", ...(options.merchant ? { merchant: options.merchant } : {}) },
    })
  ).json();
  const link = await (
    await request.post("/v1/onboarding_links", {
      headers: { authorization: isv.auth },
      data: { merchant_id: merchant.id, type: "account_onboarding", ...options.link },
    })
  ).json();
  expect(link.url).toMatch(/^https?:\/\/[^/]+\/onboard\/[0-9A-Za-z]{43}$/);
  return { merchant, link, path: new URL(link.url).pathname };
}

export async function expectAxeClean(page: Page) {
  // Next streams a dynamic page's metadata after its body: the page is checked once its title is there
  // (a page that never gets one still fails, on this wait).
  await expect(page).toHaveTitle(/\S/);
  // A page with a frame of another origin (the card frame, an embedded component) is checked the
  // way axe checks such frames: each frame apart, the results put together in a blank page it opens.
  // Any other page in axe's "legacy" mode, one pass over the page and its same-origin frames,
  // without that extra page (half a second a check, about 60 checks a run).
  const origin = new URL(page.url()).origin;
  const crossOriginFrame = page
    .frames()
    .some(
      (frame) => frame !== page.mainFrame() && /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== origin,
    );
  const results = await new AxeBuilder({ page }).setLegacyMode(!crossOriginFrame).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectNoRawCodes(page);
  await expectScrollCues(page);
}

/**
 * A table wider than its box says so (issue 48, phones): every sideways-scrolling table region
 * (components/ui/scroll-region.tsx) that hides columns shows the line asking to swipe and fades its
 * hidden side; one that fits shows neither. Checked on every page a journey checks with axe.
 */
export async function expectScrollCues(page: Page) {
  for (const frame of page.frames()) {
    if (!/^https?:/.test(frame.url())) continue;
    const wrong = () =>
      frame
        .evaluate(() =>
          [...document.querySelectorAll<HTMLElement>(".scroll-cue")].flatMap((box) => {
            const overflows = box.scrollWidth > box.clientWidth + 1;
            const hint = box.parentElement?.querySelector('[data-testid="scroll-hint"]') !== null;
            const faded = getComputedStyle(box).maskImage !== "none";
            return overflows === hint && overflows === faded
              ? []
              : [
                  `${box.getAttribute("aria-label") ?? box.getAttribute("aria-labelledby")}: overflows ${overflows}, hint ${hint}, faded ${faded}`,
                ];
          }),
        )
        .catch(() => [] as string[]);
    // The box measures itself once it is laid out: a deadline, not a sleep.
    await expect.poll(wrong, { timeout: 5_000 }).toEqual([]);
  }
}

/**
 * No code or id of the API reaches a reader as text (issue 48): a word like `card_declined` or
 * `insufficient_funds`, or a prefixed id (`stl_...`, `file_...`), outside an element that shows it as
 * an id on purpose (`<code>`, `<kbd>`, `<samp>`, `<pre>`, or `data-id`) or words a person typed
 * (`data-user-text`). Checked on every page a
 * journey checks with axe, in its main frame and same-origin frames.
 */
export async function expectNoRawCodes(page: Page) {
  const found: string[] = [];
  for (const frame of page.frames()) {
    if (!/^https?:/.test(frame.url())) continue;
    const hits = await frame
      .evaluate(() => {
        const code = /\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]{2,5}_(?=[0-9A-Za-z]*[0-9A-Z])[0-9A-Za-z]{8,}\b/g;
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (
            !parent ||
            parent.closest(
              "script, style, noscript, template, textarea, code, kbd, samp, pre, [data-id], [data-user-text]",
            )
          )
            continue;
          // A link's address may hold an id (a pay link's /pay/pr_...): the address is what is shown.
          const words = (node.textContent ?? "").replace(/https?:\/\/\S+/g, "");
          for (const match of words.match(code) ?? [])
            out.push(`${match} (in "${node.textContent!.trim().slice(0, 80)}")`);
        }
        return out;
      })
      .catch(() => [] as string[]);
    found.push(...hits.map((h) => `${frame.url()}: ${h}`));
  }
  if (process.env.E2E_RAW_CODES === "report") {
    if (found.length) (await import("node:fs")).appendFileSync("test-results/raw-codes.txt", found.join("\n") + "\n");
    return;
  }
  expect(found).toEqual([]);
}

export async function setAccount(request: APIRequestContext, isv: Isv, patch: unknown) {
  const res = await request.patch("/v1/account", { headers: { authorization: isv.auth }, data: patch });
  expect(res.status()).toBe(200);
}

/**
 * A member's authenticator app as the journeys hold it (per e-mail, in this worker): its secret, the
 * last 30-second step whose code was used (a code works once), and its recovery codes.
 */
type App = { secret: string; lastStep: number; codes: string[] };
const apps = new Map<string, App>();
const totpOf = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/**
 * The next code of the member's app: this step's, else the next one's (a step not used yet; never the
 * step before, which a step boundary crossed on the way would make too old), else a recovery code.
 */
export function nextCode(email: string) {
  const app = apps.get(email);
  if (!app) throw new Error(`${email} has no authenticator app in this worker: sign it in with signIn first`);
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(app.lastStep + 1, now);
  if (step > now + 1) return app.codes.pop() ?? "";
  app.lastStep = step;
  return totpOf(app.secret).generate({ timestamp: step * 30_000 });
}

/**
 * After the password: the second step. The first time, the member sets up an authenticator app (the
 * key shown beside the QR code, a code from it, the recovery codes shown once); then its app's code.
 */
export async function secondStep(page: Page, email: string, shots?: string) {
  const shoot = async (name: string) => {
    if (!shots) return;
    const size = page.viewportSize();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/screens/${shots}-${name}-${width}.png`, fullPage: true });
    }
    if (size) await page.setViewportSize(size);
  };
  await page.waitForURL(/\/(dashboard|sign-in\/(enrol|verify))(\?|$|\/)/);
  if (/\/sign-in\/enrol/.test(page.url())) {
    await page.getByRole("button", { name: "Set up an app" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
    apps.set(email, { secret, lastStep: 0, codes: [] });
    await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
    await shoot("app");
    await page.getByLabel("The six digits the app shows now").fill(nextCode(email));
    await page.getByRole("button", { name: "Confirm the app" }).click();
    const codes = page.getByTestId("recovery-codes").getByRole("listitem");
    const refused = page.getByRole("main").getByRole("alert");
    await expect(codes.or(refused).first()).toBeVisible();
    if (await refused.isVisible()) throw new Error(`the app's code was refused: ${await refused.textContent()}`);
    await expect(codes).toHaveCount(10);
    apps.get(email)!.codes = await codes.allTextContents();
    await shoot("codes");
    await page.getByRole("button", { name: "I saved them: continue" }).click();
  } else if (/\/sign-in\/verify/.test(page.url())) {
    await page.getByLabel("Code", { exact: true }).fill(nextCode(email));
    await page.getByRole("button", { name: "Verify" }).click();
  }
}

/** Signs the ISV's first user in to the dashboard, with its second factor (lands on the overview). */
export async function signIn(page: Page, isv: { user_email: string; password: string }) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(isv.user_email);
  await page.getByLabel("Password").fill(isv.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await secondStep(page, isv.user_email);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

/** `POST /v1/auth/token` as a member signed in once before (its app's code): the Bearer header. */
export async function memberBearer(request: APIRequestContext, member: { user_email: string; password: string }) {
  const res = await request.post("/v1/auth/token", {
    data: { email: member.user_email, password: member.password, code: nextCode(member.user_email) },
  });
  expect(res.status(), await res.text()).toBe(200);
  return `Bearer ${(await res.json()).access_token}`;
}

/** A merchant taken through the onboarding session API and approved by the sandbox's underwriting. */
/**
 * A merchant created by the ISV with `app` (the sample application by default) and taken through the
 * onboarding session API: device chosen, agreement signed by owner one, submitted. Underwriting runs.
 */
export async function submittedThroughSession(request: APIRequestContext, isv: { auth: string }, app = application()) {
  const headers = { authorization: isv.auth };
  const merchant = await (
    await request.post("/v1/merchants", { headers, data: { phone: "+14155550123", merchant: app } })
  ).json();
  const link = await (
    await request.post("/v1/onboarding_links", {
      headers,
      data: { merchant_id: merchant.id, type: "account_onboarding" },
    })
  ).json();
  const opened = await request.get(new URL(link.url).pathname, { maxRedirects: 0 });
  const token = opened.headers()["set-cookie"]?.match(/onboarding_session=([^;]+)/)?.[1];
  const session = { authorization: `Bearer ${token}` };
  expect(
    (
      await request.patch("/v1/onboarding/session", { headers: session, data: { device: { catalog_id: "pax-a920" } } })
    ).status(),
  ).toBe(200);
  expect(
    (
      await request.post("/v1/onboarding/session/agreement", {
        headers: session,
        data: { name: `${app.owner_one.first_name} ${app.owner_one.last_name}` },
      })
    ).status(),
  ).toBe(200);
  expect((await request.post("/v1/onboarding/session/submit", { headers: session })).status()).toBe(200);
  return merchant.id as string;
}

/** The portal link underwriting's information request e-mailed the merchant (the sandbox outbox), as a path. */
export async function portalPathFromOutbox(request: APIRequestContext, isv: { auth: string }, merchantId: string) {
  const outbox = await (await request.get("/v1/test_helpers/outbox", { headers: { authorization: isv.auth } })).json();
  const mail = outbox.data.find(
    (m: any) => m.merchant_id === merchantId && m.kind === "information_requested.merchant",
  );
  return new URL(mail.text.match(/(http\S+\/onboard\/\S+)/)[1]).pathname;
}

export async function approvedMerchant(request: APIRequestContext, isv: { auth: string }, app = application()) {
  const merchant = { id: await submittedThroughSession(request, isv, app) };
  let approved: any;
  await expect
    .poll(
      async () => {
        approved = await (
          await request.get(`/v1/merchants/${merchant.id}`, { headers: { authorization: isv.auth } })
        ).json();
        return approved.lead_onboarding_status;
      },
      { timeout: 15_000 },
    )
    .toBe("APPROVED");
  return {
    id: merchant.id as string,
    terminalId: approved.payment.terminal_id as string,
    publishableKey: approved.payment.tokenizer_publishable_key as string,
  };
}

/** A scan-to-pay request of the merchant paid by card as its pay page does it (the card tokenized with its publishable key); answers the charge's id. */
export async function paidCharge(
  request: APIRequestContext,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
  card = "4242424242424242",
) {
  const pr = await (
    await request.post("/v1/scan_to_pay", {
      headers: { authorization: isv.auth },
      data: { merchant_id: merchant.id, amount },
    })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      data: { card: { number: card, exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  const paid = await (await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } })).json();
  expect(paid.charge.status).toBe("AUTHORIZED");
  return paid.charge.id as string;
}

/** An embedded component's frame (on the service's origin) once it shows `path`, hydrated. */
export async function componentFrame(page: Page, element: string, path: RegExp, serviceOrigin: string): Promise<Frame> {
  await expect(page.locator(`${element} iframe`)).toBeVisible();
  // Chromium throttles offscreen cross-origin frames (their page may hydrate only once seen).
  await page.locator(`${element} iframe`).scrollIntoViewIfNeeded();
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = page.frames().find((f) => f.url().startsWith(serviceOrigin) && path.test(new URL(f.url()).pathname));
      return Boolean(frame);
    })
    .toBe(true);
  await waitForHydration(frame!).catch((e) => {
    throw new Error(`${element} ${frame!.url()} never hydrated: ${e}`);
  });
  return frame!;
}

/** A photo of an identity document as the sandbox takes it: a 320 × 200 PNG (its width is checked after download). */
export const licencePng = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .toBuffer();
