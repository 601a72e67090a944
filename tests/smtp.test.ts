import type { AddressInfo } from "node:net";

import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, expect, test } from "vitest";

// E-mail through a real SMTP server started here: set SMTP_URL before the app is loaded.
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    let raw = "";
    stream.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    stream.on("end", () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}?ignoreTLS=true`;

const { startTestApi } = await import("./helpers/api");
const { submittedMerchant, waitForStatus } = await import("./helpers/onboarding");
let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
});
afterAll(async () => {
  await api.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

test("an information request is e-mailed over SMTP to the merchant and the ISV, branded, without sensitive values", async () => {
  const isv = await api.newIsv("Mail POS");
  await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: { defaults: { support: { email: "risk@mailpos.example" } } },
  });
  const { id } = await submittedMerchant(api, isv, (a) => (a.tin = "111111111"));
  await waitForStatus(api, isv, id, ["IN_PROGRESS"]);
  const start = Date.now();
  while (received.length < 2 && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 50));
  expect(received.map((r) => r.to[0]).sort()).toEqual(["mei@example.com", "risk@mailpos.example"]);
  const merchantMail = received.find((r) => r.to[0] === "mei@example.com")!.raw;
  expect(merchantMail).toMatch(/Subject: Mail POS: we need a few more details/);
  // From the ISV's brand, at the deployment's address.
  expect(merchantMail).toMatch(/^From: Mail POS <onboarding@localhost>\r?$/m);
  expect(merchantMail).toMatch(/\/onboard\//);
  for (const secret of ["111111111", "401234567", "000123456789"]) expect(merchantMail).not.toContain(secret);
  // The outbox marks a message sent once the server has answered: a moment after it received it.
  await expect
    .poll(
      async () =>
        (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data.map((m: any) => ({
          transport: m.transport,
          sent: Boolean(m.sent_at),
        })),
      { timeout: 10_000 },
    )
    .toEqual([
      { transport: "smtp", sent: true },
      { transport: "smtp", sent: true },
    ]);
});

test("a payment's receipt goes over SMTP: its message and its job written by the payment's last statement", async () => {
  const { approvedMerchant, tokenize } = await import("./helpers/payments");
  const isv = await api.newIsv("Receipt POS");
  const merchant = await approvedMerchant(api, isv);
  const request = await api.call("POST", "/v1/scan_to_pay", {
    auth: isv.auth,
    body: { merchant_id: merchant.id, amount: 2500 },
  });
  const paid = await api.call("POST", `/v1/payment_requests/${request.json.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey), email: "payer@example.com" },
  });
  expect(paid.status, paid.text).toBe(200);
  await expect.poll(() => received.filter((r) => r.to[0] === "payer@example.com").length, { timeout: 10_000 }).toBe(1);
  expect(received.find((r) => r.to[0] === "payer@example.com")!.raw).toContain("$25.00");
  await expect
    .poll(
      async () =>
        (await api.call("GET", "/v1/test_helpers/outbox", { auth: isv.auth })).json.data
          .filter((m: any) => m.to === "payer@example.com")
          .map((m: any) => ({ kind: m.kind, transport: m.transport, sent: Boolean(m.sent_at) })),
      { timeout: 10_000 },
    )
    .toEqual([{ kind: "charge.receipt", transport: "smtp", sent: true }]);
});
