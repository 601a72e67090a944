import {
  approvedMerchant,
  createIsvWithCli,
  expectAxeClean,
  expectNoRawCodes,
  nextCode,
  operatorOutbox,
  paidCharge,
  secondStep,
  signIn,
} from "./helpers";
import { expect, type Page, test, waitForHydration } from "./test";

// The ISV's team (docs/reference.md section 23): the owner invites a support member, who joins from
// the e-mailed link, refunds within the owner's limit and is refused above it; the owner removes
// them and their open page signs out; a view-only page hides what its role cannot do.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

test("an owner invites a support member who refunds within the limit; removed, their page signs out", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const isv = createIsvWithCli("Team Studio");
  const merchant = await approvedMerchant(request, isv);
  const chargeId = await paidCharge(request, isv, merchant, 8_000);

  await signIn(page, isv);
  await page.getByRole("navigation").getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  const members = page.getByTestId("team-members");
  await expect(members.locator("li")).toHaveCount(1);
  await expect(members.locator("li").first()).toContainText("(you)");

  // The limit first: $50.00 for support.
  await page.getByLabel("Limit (USD)").fill("50");
  await page.getByRole("button", { name: "Save the limit" }).click();
  await expect(page.getByTestId("refund-limit")).toHaveText("Members with the Support role may refund up to $50.00.");

  const email = `support-${Date.now()}@example.test`;
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await expect(page.getByText("Merchants, payments, refunds up to the limit, disputes; no settings")).toBeVisible();
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Invitation sent" })).toContainText(email);
  await expect(page.getByTestId("team-invitations").locator(`[data-invitation="${email}"]`)).toContainText("Support");
  await expectAxeClean(page);
  await expectNoRawCodes(page);
  await shots(page, "dashboard-team");

  // The invitation's e-mail, as the invited person reads it.
  const mail = operatorOutbox(isv.account_id).find((m) => m.kind === "member_invitation" && m.to === email);
  expect(mail?.subject).toBe("Join Team Studio's team");
  const path = new URL(mail!.text.match(/https?:\/\/\S+\/sign-in\/invitation\/\S+/)![0]).pathname;

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const other = await context.newPage();
  await other.goto(path);
  await waitForHydration(other);
  await expect(other.getByRole("heading", { name: "Join Team Studio", level: 1 })).toBeVisible();
  await expect(other.getByText(`as Support, with the address ${email}`)).toBeVisible();
  await expectAxeClean(other);
  await shots(other, "team-invitation");
  await other.getByLabel("Your name").fill("Sam Support");
  await other.getByLabel("Choose a password").fill("support-password-1");
  await other.getByLabel("The password again").fill("support-password-1");
  await other.getByRole("button", { name: "Join the team" }).click();
  // Joined: the second factor next. Support may skip it, and sets up an authenticator app instead.
  await expect(other.getByRole("heading", { name: "Set up two-step sign-in", level: 1 })).toBeVisible();
  await expect(other.getByRole("button", { name: "Skip for now" })).toBeVisible();
  await expectAxeClean(other);
  await shots(other, "team-enrol");
  await secondStep(other, email, "team-enrol");
  await expect(other.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  // Signed out and in again: the password, then the app's code.
  await other.getByRole("button", { name: "Sign out" }).click();
  await expect(other).toHaveURL(/\/sign-in$/);
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password").fill("support-password-1");
  await other.getByRole("button", { name: "Sign in" }).click();
  await expect(other.getByRole("heading", { name: "Two-step sign-in", level: 1 })).toBeVisible();
  await other.getByLabel("Code", { exact: true }).fill("000000");
  await other.getByRole("button", { name: "Verify" }).click();
  await expect(other.getByRole("main").getByRole("alert")).toContainText("That code does not work");
  await expectAxeClean(other);
  await shots(other, "team-verify");
  await other.getByLabel("Code", { exact: true }).fill(nextCode(email));
  await other.getByRole("button", { name: "Verify" }).click();
  await expect(other.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  // Support sees no Developers tab, and the settings only to read.
  const nav = other.getByRole("navigation");
  await expect(nav.getByRole("link", { name: "Developers" })).toHaveCount(0);
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(other.getByTestId("settings-read-only")).toContainText("Your role (Support)");
  await other.goto("/dashboard/developers");
  await expect(other.getByRole("heading", { name: "Not for your role", level: 1 })).toBeVisible();
  await expect(other.getByText("Your role (Support) cannot open this page")).toBeVisible();

  // A refund above the limit is refused and nothing moves; within it, made.
  await other.goto(`/dashboard/merchants/${merchant.id}/charges/${chargeId}`);
  await waitForHydration(other);
  await other.getByLabel("Amount to refund (USD)").fill("60");
  await other.getByRole("button", { name: "Review the refund" }).click();
  await other.getByRole("button", { name: "Refund $60.00" }).click();
  await expect(other.getByRole("alert").filter({ hasText: "up to" })).toContainText(
    "Your role (Support) may refund up to $50.00",
  );
  const unchanged = await (
    await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(unchanged.amount_refunded).toBe(0);
  await other.getByRole("button", { name: "Change", exact: true }).click();
  await other.getByLabel("Amount to refund (USD)").fill("20");
  await other.getByRole("button", { name: "Review the refund" }).click();
  await other.getByRole("button", { name: "Refund $20.00" }).click();
  await expect(other.getByRole("status").filter({ hasText: "Refunded" })).toHaveText("Refunded $20.00.");
  const refunded = await (
    await request.get(`/v1/charges/${chargeId}`, { headers: { authorization: isv.auth } })
  ).json();
  expect(refunded.amount_refunded).toBe(2_000);

  // The owner sees the new member and removes them.
  await page.reload();
  const row = members.locator(`[data-member="${email}"]`);
  await expect(row).toContainText("Sam Support");
  await expect(row.getByLabel("Role of Sam Support")).toHaveValue("support");
  page.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: "Remove Sam Support" }).click();
  await expect(members.locator(`[data-member="${email}"]`)).toHaveCount(0);

  // Their open page signs out at its next request.
  await other.reload();
  await expect(other).toHaveURL(/\/sign-in$/);
  await context.close();

  // The owner's sessions: a second browser signed in, then ended from the settings.
  const second = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const elsewhere = await second.newPage();
  await signIn(elsewhere, isv);
  await page.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
  // The owner's second factor: the app it set up at its first sign-in, and its ten recovery codes.
  await expect(page.getByTestId("factors").locator("li")).toHaveCount(1);
  await expect(page.getByTestId("factors")).toContainText("Authenticator app");
  await expect(page.getByText("10 recovery codes left.")).toBeVisible();
  // The owner's only factor cannot go (a sign-in of the last 15 minutes, and the rule of one factor).
  await page.getByRole("button", { name: "Remove Authenticator app" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Owners and admins keep one" })).toBeVisible();
  await expect(page.getByTestId("factors").locator("li")).toHaveCount(1);
  await page.locator("#security").screenshot({ path: "test-results/screens/dashboard-security-1280.png" });
  const sessions = page.getByTestId("sessions");
  await expect(sessions.locator("li")).toHaveCount(2);
  await expect(sessions.locator("li").filter({ hasText: "This session" })).toHaveCount(1);
  await expect(sessions.locator("li").first()).toContainText("Chrome · ");
  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByRole("status").filter({ hasText: "ended" })).toHaveText("1 other session ended.");
  await expect(sessions.locator("li")).toHaveCount(1);
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/sign-in$/);
  await second.close();
  await page.getByRole("navigation").getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();

  // Spanish.
  await page.getByLabel("Language").selectOption("es");
  await expect(page.getByRole("heading", { name: "Equipo", level: 1 })).toBeVisible();
  await expect(page.getByTestId("refund-limit")).toHaveText(
    "Los miembros con el rol Soporte pueden reembolsar hasta $50.00.",
  );
  await expectAxeClean(page);
  await expectNoRawCodes(page);
  await shots(page, "dashboard-team-es");
  await page.getByRole("navigation").getByRole("link", { name: "Configuración" }).click();
  await expect(page.getByRole("heading", { name: "Inicio de sesión en dos pasos", level: 2 })).toBeVisible();
  await expect(page.getByText("Le quedan 10 códigos de recuperación.")).toBeVisible();
  await expectNoRawCodes(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.locator("#security").screenshot({ path: "test-results/screens/dashboard-security-es-375.png" });
});
