import type { BrowserContext } from "@playwright/test";

import { approvedMerchant, createIsvWithCli, paidCharge } from "./helpers";
import { type APIRequestContext, expect, test } from "./test";

// A merchant's home session reaches its own merchant only (docs/reference.md section 15): two
// merchants of one ISV, and every page and download of the home with the sibling's ids. The sibling's
// own session opens each one (so a 404 means "not yours", not "broken"); the other merchant's gets a
// 404 and nothing of the sibling's shows; a refund sent with the sibling's charge id refunds nothing.

async function homeOf(context: BrowserContext, request: APIRequestContext, isv: { auth: string }, merchantId: string) {
  const link = await (
    await request.post(`/v1/merchants/${merchantId}/login_links`, { headers: { authorization: isv.auth } })
  ).json();
  const page = await context.newPage();
  await page.goto(new URL(link.url).pathname);
  await expect(page).toHaveURL(/\/home$/);
  return page;
}

test("a merchant's home never reaches a sibling merchant of its ISV: each page and download 404, a refund of the sibling's charge refused", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Sibling Shops");
  const headers = { authorization: isv.auth };
  const own = await approvedMerchant(request, isv);
  const sibling = await approvedMerchant(request, isv);

  // The sibling's objects: a payment, one disputed when it settles (a settlement, its payout, a
  // dispute), a payment request, a document and a statement.
  const ownCharge = await paidCharge(request, isv, own, 1_500);
  const siblingCharge = await paidCharge(request, isv, sibling, 2_500);
  const disputedCharge = await paidCharge(request, isv, sibling, 4_321, "4000000000000259");
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: sibling.id } });
  const charge = async (id: string) => (await (await request.get(`/v1/charges/${id}`, { headers })).json()) as any;
  await expect.poll(async () => (await charge(disputedCharge)).dispute_id, { timeout: 20_000 }).toMatch(/^dp_/);
  const disputeId = (await charge(disputedCharge)).dispute_id as string;
  const listOf = async (path: string) =>
    ((await (await request.get(`${path}?merchant_id=${sibling.id}`, { headers })).json()).data as any[]) ?? [];
  await expect.poll(async () => (await listOf("/v1/payouts")).length, { timeout: 20_000 }).toBe(1);
  const [payout] = await listOf("/v1/payouts");
  const [settlement] = await listOf("/v1/settlements");
  const paymentRequest = await (
    await request.post("/v1/scan_to_pay", { headers, data: { merchant_id: sibling.id, amount: 777 } })
  ).json();
  const file = await (
    await request.post("/v1/files", {
      headers,
      multipart: {
        purpose: "additional_verification",
        merchant_id: sibling.id,
        file: {
          name: "articles.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from("%PDF-1.4\n% articles\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"),
        },
      },
    })
  ).json();
  const period = new Date().toISOString().slice(0, 7);
  const statement = await (
    await request.post("/v1/test_helpers/statements/generate", { headers, data: { merchant_id: sibling.id, period } })
  ).json();
  const made = { payout, settlement, paymentRequest, file, statement };
  for (const [name, object] of Object.entries(made))
    expect(object?.id, `${name}: ${JSON.stringify(object)}`).toBeTruthy();

  const paths = [
    `/home/payments/${siblingCharge}`,
    `/home/payments/${disputedCharge}`,
    `/home/payouts/${payout.id}`,
    `/home/settlements/${settlement.id}`,
    `/home/disputes/${disputeId}`,
    `/home/take-payment/${paymentRequest.id}`,
    `/home/files/${file.id}`,
    `/home/statements/${statement.id}?format=pdf`,
    `/home/statements/${statement.id}?format=csv`,
  ];
  // Each is the sibling's own: its session opens it.
  const siblingContext = await browser.newContext({ baseURL });
  const siblingPage = await homeOf(siblingContext, request, isv, sibling.id);
  for (const path of paths) {
    const answer = await siblingPage.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), `the sibling's own ${path}`).toBe(200);
  }
  await siblingContext.close();

  // The other merchant's session: 404 for each, and nothing of the sibling's in the answer.
  const ownContext = await browser.newContext({ baseURL });
  const page = await homeOf(ownContext, request, isv, own.id);
  for (const path of paths) {
    const answer = await page.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), `another merchant's ${path}`).toBe(404);
    // Nothing of the sibling's in the answer (the path's own id aside: the 404 page carries its URL).
    const body = await answer.text();
    const ids = [siblingCharge, disputedCharge, payout.id, settlement.id, disputeId, paymentRequest.id, file.id];
    for (const id of ids.filter((id) => !path.includes(id))) expect(body, path).not.toContain(id);
    for (const amount of ["$25.00", "$43.21", "$7.77"]) expect(body, path).not.toContain(amount);
  }
  // Its own lists show only its own payment.
  await page.goto("/home/payments");
  await expect(page.getByText("$15.00").first()).toBeVisible();
  await expect(page.getByText("$25.00")).toHaveCount(0);
  await expect(page.getByText("$43.21")).toHaveCount(0);
  await page.goto("/home/disputes");
  await expect(page.getByText("$43.21")).toHaveCount(0);

  // A refund from its own payment's page, sent with the sibling's charge id instead: refused, and
  // neither charge refunded.
  await page.goto(`/home/payments/${ownCharge}`);
  await page.route(`**/home/payments/${ownCharge}`, async (route) => {
    const sent = route.request();
    if (sent.method() === "POST" && sent.headers()["next-action"])
      await route.continue({ postData: (sent.postData() ?? "").replaceAll(ownCharge, siblingCharge) });
    else await route.continue();
  });
  await page.getByLabel("Amount to refund (USD)").fill("5");
  await page.getByRole("button", { name: "Review the refund" }).click();
  await page.getByRole("button", { name: "Refund $5.00" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not refunded:" })).toContainText("No such charge");
  await expect(page.getByText("Refunded $5.00.")).toHaveCount(0);
  expect((await charge(siblingCharge)).amount_refunded).toBe(0);
  expect((await charge(ownCharge)).amount_refunded).toBe(0);
  const refunds = await (await request.get(`/v1/refunds?charge_id=${siblingCharge}`, { headers })).json();
  expect(refunds.data).toEqual([]);
  await ownContext.close();
});
