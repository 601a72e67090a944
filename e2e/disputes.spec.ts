import { approvedMerchant, createIsvWithCli, expectAxeClean, signIn } from "./helpers";
import { type APIRequestContext, expect, type Page, test } from "./test";

// A dispute in the merchant's home (docs/reference.md section 16): the overview says a customer
// disputed a payment and how many days are left; the dispute's page explains the reason and saves
// the answer as the merchant types and picks a receipt; submitted after a confirmation, the sandbox's
// bank decides within seconds and the page shows it won. English and Spanish, 375 and 1280 px.

const shots = async (page: Page, name: string) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
};

const receipt = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% signed receipt\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

async function disputedCharge(
  request: APIRequestContext,
  isv: { auth: string },
  merchant: { id: string; publishableKey: string },
  amount: number,
) {
  const headers = { authorization: isv.auth };
  const pr = await (
    await request.post("/v1/scan_to_pay", { headers, data: { merchant_id: merchant.id, amount } })
  ).json();
  const token = await (
    await request.post("/v1/tokens", {
      headers: { authorization: `Bearer ${merchant.publishableKey}` },
      // The sandbox's disputed card: approved, then disputed when its charge settles.
      data: { card: { number: "4000000000000259", exp_month: 12, exp_year: 2034, cvc: "123" } },
    })
  ).json();
  const paid = await (await request.post(`/v1/payment_requests/${pr.id}/pay`, { data: { token: token.id } })).json();
  expect(paid.charge.status).toBe("AUTHORIZED");
  await request.post("/v1/test_helpers/settlement/run", { headers, data: { merchant_id: merchant.id } });
  const chargeId = paid.charge.id as string;
  await expect
    .poll(async () => (await (await request.get(`/v1/charges/${chargeId}`, { headers })).json()).dispute_id, {
      timeout: 20_000,
    })
    .toMatch(/^dp_/);
  return (await (await request.get(`/v1/charges/${chargeId}`, { headers })).json()) as {
    id: string;
    dispute_id: string;
  };
}

test("a merchant answers a dispute in its home with a text and a receipt, submits it after a confirmation, and sees it won; in Spanish too", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const isv = createIsvWithCli("Dispute Cafe");
  const headers = { authorization: isv.auth };
  const merchant = await approvedMerchant(request, isv);
  const charge = await disputedCharge(request, isv, merchant, 4_200);

  const link = await (await request.post(`/v1/merchants/${merchant.id}/login_links`, { headers })).json();
  await page.goto(new URL(link.url).pathname);
  await expect(page.getByTestId("due-dispute")).toHaveText(
    "A customer disputed a payment of $42.00. Respond within 7 days.Answer the dispute",
  );
  // The next settlement takes the amount and the fee.
  await expect(page.getByTestId("next-settlement-disputes")).toHaveText("Less $57.00 for disputes (amounts and fees)");
  await expectAxeClean(page);
  await shots(page, "home-dispute-banner-en");

  await page.getByRole("link", { name: "Answer the dispute" }).click();
  await expect(page).toHaveURL(new RegExp(`/home/disputes/${charge.dispute_id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dispute of $42.00");
  await expect(page.getByTestId("dispute-facts")).toContainText(
    "The customer told their bank they did not make this payment: someone else used their card.",
  );
  await expect(page.getByTestId("dispute-facts")).toContainText(
    "$42.00 and a dispute fee of $15.00 leave your settlement. If you win, $42.00 comes back; the fee does not.",
  );
  await expect(page.getByTestId("dispute-status")).toHaveText("Needs your answer");
  await expect(page.getByTestId("dispute-days")).toHaveText("Respond within 7 days");

  // Saved as typed: a name, a receipt picked, the text; all still there after a reload.
  await page.getByLabel("Customer's name").fill("Ana Ruiz");
  await expect(page.getByTestId("evidence-state")).toHaveText("Saved");
  await page
    .getByLabel("Receipt")
    .setInputFiles({ name: "signed-receipt.pdf", mimeType: "application/pdf", buffer: receipt });
  await expect(page.getByTestId("evidence-receipt-current")).toHaveText("Attached: signed-receipt.pdf");
  await page.getByLabel("Anything else the bank should know").fill("winning_evidence");
  await page.getByLabel("Anything else the bank should know").blur();
  await expect(page.getByTestId("evidence-state")).toHaveText("Saved");
  await expect
    .poll(async () => (await (await request.get(`/v1/disputes/${charge.dispute_id}`, { headers })).json()).evidence)
    .toMatchObject({
      customer_name: "Ana Ruiz",
      uncategorized_text: "winning_evidence",
      receipt: expect.stringMatching(/^file_/),
    });
  await page.reload();
  await expect(page.getByLabel("Customer's name")).toHaveValue("Ana Ruiz");
  await expect(page.getByLabel("Anything else the bank should know")).toHaveValue("winning_evidence");
  await expect(page.getByTestId("evidence-receipt-current")).toHaveText("Attached: signed-receipt.pdf");
  await expectAxeClean(page);
  await shots(page, "home-dispute-form-en");

  // Submit asks first; cancel changes nothing.
  await page.getByRole("button", { name: "Submit evidence" }).click();
  await expect(page.getByRole("alertdialog")).toContainText(
    "Send this evidence to the bank? It cannot be changed afterwards.",
  );
  await expect(page.getByRole("alertdialog")).toBeFocused();
  await page.getByRole("button", { name: "Cancel" }).click();
  expect((await (await request.get(`/v1/disputes/${charge.dispute_id}`, { headers })).json()).status).toBe(
    "needs_response",
  );
  await page.getByRole("button", { name: "Submit evidence" }).click();
  await page.getByRole("button", { name: "Yes, submit it" }).click();
  // The sandbox's bank decides within seconds; the page follows by itself.
  await expect(page.getByTestId("dispute-status")).toHaveText("Won", { timeout: 20_000 });
  await expect(page.getByTestId("dispute-outcome")).toHaveText(
    "You won this dispute: $42.00 comes back with your next settlement.",
  );
  await expect(page.getByTestId("dispute-sent")).toContainText("Ana Ruiz");
  await expect(page.getByTestId("dispute-sent")).toContainText("signed-receipt.pdf");
  await expect(page.getByLabel("Customer's name")).toHaveCount(0);
  await expectAxeClean(page);
  await shots(page, "home-dispute-won-en");

  // The payment: disputed, linked to its dispute, and no refund offered.
  await page.goto(`/home/payments/${charge.id}`);
  await expect(page.getByTestId("charge-disputed")).toContainText("Disputed");
  await expect(page.getByRole("button", { name: /refund/i })).toHaveCount(0);

  // In Spanish: the list and the dispute in the reader's words.
  await page.context().addCookies([{ name: "locale", value: "es", url: baseURL! }]);
  await page.goto("/home/disputes");
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("$42.00");
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("No la hizo el cliente");
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("Ganada");
  await expectAxeClean(page);
  await shots(page, "home-disputes-es");
  await page.getByRole("link", { name: /Abrir la disputa/ }).click();
  await expect(page.getByTestId("dispute-outcome")).toContainText("Ganó esta disputa");
  await shots(page, "home-dispute-won-es");
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);

  // The ISV's dashboard: the merchant's disputes, and the dispute on its payment's page.
  await signIn(page, isv);
  await page.goto(`/dashboard/merchants/${merchant.id}?tab=payouts`);
  // Its balance, from the ledger, as the API says it, once no payout waits to be sent (a payout's
  // money leaves the available balance when the worker sends it); each settlement's disputes in a
  // column of its own.
  await expect
    .poll(
      async () =>
        (
          (
            await (
              await request.get(`/v1/payouts?merchant_id=${merchant.id}`, { headers: { authorization: isv.auth } })
            ).json()
          ).data as { status: string }[]
        ).filter((p) => p.status === "pending").length,
      { timeout: 20_000 },
    )
    .toBe(0);
  const balance = await (
    await request.get(`/v1/balance?merchant_id=${merchant.id}`, { headers: { authorization: isv.auth } })
  ).json();
  const usd = (cents: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
  await expect(page.getByTestId("balance-pending")).toContainText(usd(balance.pending));
  await expect(page.getByTestId("balance-available")).toContainText(usd(balance.available));
  await expect(page.getByTestId("settlements").getByRole("columnheader", { name: "Disputes" })).toBeVisible();
  await page.getByRole("navigation", { name: "About this merchant" }).getByRole("link", { name: "Disputes" }).click();
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("$42.00");
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("Not made by the customer");
  await expect(page.getByTestId(`dispute-${charge.dispute_id}`)).toContainText("Won");
  await page.getByTestId(`dispute-${charge.dispute_id}`).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/merchants/${merchant.id}/charges/${charge.id}#dispute$`));
  await expect(page.getByTestId("dispute-summary")).toContainText("Won");
  await expect(page.getByTestId("dispute-summary")).toContainText("$42.00 + $15.00");
  await expect(page.getByTestId("dispute-summary")).toContainText("Ana Ruiz");
  await expectAxeClean(page);
  await shots(page, "dashboard-dispute-en");
});
