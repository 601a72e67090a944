import sharp from "sharp";

import {
  application,
  createIsvWithCli,
  expectAxeClean,
  licencePng,
  portalPathFromOutbox,
  signIn,
  submittedThroughSession,
} from "./helpers";
import { type APIRequestContext, expect, type Page, test } from "./test";

// Verification in the portal (docs/reference.md section 14): an owner born 1902-01-01 cannot be
// verified from the data; the portal asks for an identity document in place, on the Owners step,
// with the reason in the merchant's language; the upload is checked again and the merchant approved,
// or (a file named "unreadable") asked again with the reason.

async function submittedWithDocumentRequest(request: APIRequestContext, name: string) {
  const isv = createIsvWithCli(name);
  const app = application();
  app.owner_one.date_of_birth = "1902-01-01";
  const merchantId = await submittedThroughSession(request, isv, app);
  const status = async () =>
    (await (await request.get(`/v1/merchants/${merchantId}`, { headers: { authorization: isv.auth } })).json())
      .lead_onboarding_status;
  await expect.poll(status, { timeout: 15_000 }).toBe("IN_PROGRESS");
  return { merchantId, portalPath: await portalPathFromOutbox(request, isv, merchantId), status, isv };
}

async function chooseFile(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId("document-file").setInputFiles({ name, mimeType: "image/png", buffer });
}

test("an owner's identity asked in the portal: a photo of the licence is checked and the merchant approved", async ({
  page,
  request,
}) => {
  const { portalPath, status, isv, merchantId } = await submittedWithDocumentRequest(request, "Verify POS");
  await page.goto(portalPath);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  const panel = page.getByRole("region", { name: "Identity document: Mei Chen" });
  await expect(panel).toContainText(
    "We could not confirm Mei Chen's identity from the details given. Upload a photo of a driver's license, passport or state ID",
  );
  await expect(panel).toContainText("JPEG, PNG or PDF, up to 10 MB");
  // Only the document is asked on this step: no owner's fields to fill again.
  await expect(page.getByLabel("First name")).toHaveCount(0);
  await expectAxeClean(page);

  // A file that is not a document is refused in words before anything is sent.
  await page.getByTestId("document-file").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("hello"),
  });
  await expect(panel.getByRole("alert")).toHaveText("This file is not a JPEG, PNG or PDF. Send a photo or a PDF scan.");

  await chooseFile(page, "licence.png", await licencePng());
  // The preview shows the picture itself (a broken image would still have its name).
  const previewImage = panel.getByRole("img", { name: "Preview of licence.png" });
  await expect(previewImage).toBeVisible();
  await expect.poll(() => previewImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/portal-document-en-${width}.png`, fullPage: true });
  }
  await page.getByRole("button", { name: "Send document" }).click();
  await expect(panel.getByRole("status")).toHaveText("Checking… usually within a minute.");
  // Nothing else was asked: the application goes back to underwriting by itself, and is approved.
  await expect(page).toHaveURL(/\/onboarding\/complete\?submitted=1$/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Application approved" })).toBeVisible();
  expect(await status()).toBe("APPROVED");

  // The ISV sees each check, and the document, on the merchant's page; the document downloads.
  await page.context().clearCookies();
  await signIn(page, isv);
  await page.goto(`/dashboard/merchants/${merchantId}?tab=documents`);
  const checks = page.getByTestId("checks");
  await expect(checks.getByRole("row")).toHaveText([
    "CheckAboutStateReasonDocument",
    "BusinessThe businessVerified",
    "IdentityMei ChenVerifiedlicence.png",
    "IdentityLuis OrtegaVerified",
    "Bank accountThe businessVerified",
    "Sanctions screeningThe businessVerified",
  ]);
  const download = page.waitForEvent("download");
  await checks.getByRole("link", { name: "licence.png" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("licence.png");
  expect((await sharp(await file.path()).metadata()).width).toBe(320);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await checks.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/screens/dashboard-checks-375.png" });
});

test("a document that cannot be read is asked for again with the reason, in Spanish", async ({
  page,
  request,
  baseURL,
}) => {
  const { portalPath, status } = await submittedWithDocumentRequest(request, "Verifica POS");
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.goto(portalPath);
  await expect(page).toHaveURL(/\/onboarding\/owners$/);
  const panel = page.getByRole("region", { name: "Documento de identidad: Mei Chen" });
  await expect(panel).toContainText("No pudimos confirmar la identidad de Mei Chen con los datos indicados.");
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/portal-document-es-${width}.png`, fullPage: true });
  }
  await chooseFile(page, "unreadable.png", await licencePng());
  await page.getByRole("button", { name: "Enviar documento" }).click();
  await expect(panel.getByRole("status")).toHaveText("Verificando… normalmente en menos de un minuto.");
  // Refused: the portal asks again, in place: the refusal as an error of its own, saying why, and the
  // request (which document, about whom) still there.
  const refusal = panel.getByTestId("document-refused");
  await expect(refusal).toContainText("El documento que envió no fue aceptado.", { timeout: 20_000 });
  await expect(refusal).toContainText("No pudimos leer el documento que envió. Súbalo de nuevo");
  await expect(panel).toContainText("No pudimos confirmar la identidad de Mei Chen con los datos indicados.");
  await expect(panel.getByRole("button", { name: "Enviar documento" })).toBeDisabled();
  expect(await status()).toBe("IN_PROGRESS");
  await expectAxeClean(page);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: "test-results/screens/portal-document-again-es-375.png", fullPage: true });
});
