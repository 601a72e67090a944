import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

// A production deployment: no test helpers, live keys, magic TINs are ordinary numbers.
process.env.APP_ENV = "production";
// Production refuses the suites' cheap password hashes (tests/setup-env.ts).
process.env.PASSWORD_HASH_COST = "standard";
process.env.JWT_SECRET = "p".repeat(40);
process.env.ENCRYPTION_KEY = "cd".repeat(32);
// These tests are about payments and magic values: the sandbox's verification provider stands in
// for a real one (production's default, none, sends every merchant to an operator: tested below).
process.env.VERIFICATION_PROVIDER = "sandbox";
const { startTestApi } = await import("./helpers/api");
const { submittedMerchant, waitForStatus } = await import("./helpers/onboarding");
const { runCommand } = await import("@/cli/commands");
const { noProvider, setVerificationProvider } = await import("@/lib/verification/provider");
let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  api = await startTestApi({ worker: true });
});
afterAll(() => api.close());

test.each([
  ["GET", "/v1/test_helpers/outbox"],
  ["POST", "/v1/test_helpers/merchants/{merchant}/approve"],
  ["POST", "/v1/test_helpers/terminals/tml_x/present_card"],
])("%s %s is an unknown route in production", async (method, template) => {
  const isv = await api.newIsv();
  // A real merchant of the caller: a 404 here can only mean the route does not exist.
  const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  const res = await api.call(method, template.replace("{merchant}", merchant.id), {
    auth: isv.auth,
    body: method === "POST" ? {} : undefined,
  });
  expect(res.status).toBe(404);
  expect(res.json.error).toMatchObject({ type: "not_found_error", code: "route_not_found" });
});

test("every answer carries Strict-Transport-Security (a year, not the ISVs' other subdomains)", async () => {
  for (const path of ["/v1/openapi.json", "/v1/account", "/v1/no_such_route"]) {
    const res = await api.call("GET", path);
    expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
  }
});

test("production keys are live keys: the operator CLI's new ISV and its rotated key, and its merchants' publishable keys", async () => {
  const email = `live-${Date.now()}@example.test`;
  const created = await runCommand(api.handle, [
    "isv",
    "create",
    "--name",
    "Live ISV",
    "--email",
    email,
    "--password",
    "a-long-password",
    "--json",
  ]);
  expect(created.code).toBe(0);
  const isv = JSON.parse(created.stdout);
  expect(isv.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{48}$/);
  // Its user's password at the standard cost (OWASP's scrypt advice), whatever the suites use elsewhere.
  const user = (await api.db.execute(sql`select password_hash from users where email = ${email}`)).rows[0] as {
    password_hash: string;
  };
  expect(user.password_hash.split("$").slice(0, 4)).toEqual(["scrypt", "16384", "8", "5"]);
  const rotated = await runCommand(api.handle, ["isv", "rotate-key", isv.account_id, "--json"]);
  const { secret_key } = JSON.parse(rotated.stdout);
  expect(secret_key).toMatch(/^sk_live_[0-9A-Za-z]{48}$/);
  const auth = `Basic ${Buffer.from(`${isv.account_sid}:${secret_key}`).toString("base64")}`;
  const m = (await api.call("POST", "/v1/merchants", { auth, body: { phone: "+14155550123" } })).json;
  expect(m.payment.tokenizer_publishable_key).toMatch(/^pk_live_/);
});

test("the sandbox's magic TIN 000000000 is an ordinary (invalid) EIN in production: information is requested, nothing is approved", async () => {
  const isv = await api.newIsv();
  const { id } = await submittedMerchant(api, isv, (app) => {
    app.tin = "000000000";
  });
  const merchant = await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
  expect(merchant.lead_onboarding_status).toBe("IN_PROGRESS");
  expect(merchant.requirements.errors).toEqual([
    { field: "merchant.tin", code: "ein_invalid", message: "This is not a valid EIN." },
  ]);
});

test("production refuses payment requests, tokens and payments until a real gateway is configured, and writes nothing", async () => {
  const isv = await api.newIsv();
  const { id } = await submittedMerchant(api, isv);
  const merchant = await waitForStatus(api, isv, id, ["IN_PROGRESS", "APPROVED", "FAILED"]);
  expect(merchant.lead_onboarding_status).toBe("APPROVED");
  for (const [path, body] of [
    ["/v1/scan_to_pay", { amount: 1000 }],
    ["/v1/invoice", { amount: 1000, sendVia: "none" }],
    ["/v1/manual", { amount: 1000 }],
    ["/v1/terminal", { amount: 1000, terminal_id: merchant.payment.terminal_id }],
  ] as const) {
    const refused = await api.call("POST", path, { auth: isv.auth, body: { merchant_id: id, ...body } });
    expect(refused.status, path).toBe(403);
    expect(refused.json.error.code).toBe("payments_not_configured");
  }
  const listed = await api.call("GET", `/v1/payment_requests?merchant_id=${id}`, { auth: isv.auth });
  expect(listed.json.data).toEqual([]);
  const token = await api.call("POST", "/v1/tokens", {
    auth: `Bearer ${merchant.payment.tokenizer_publishable_key}`,
    body: { card: { number: "4242424242424242", exp_month: 12, exp_year: 2031, cvc: "123" } },
  });
  expect(token.status).toBe(403);
  expect(token.json.error.code).toBe("payments_not_configured");
});

test("without a verification provider nothing is verified automatically: the merchant goes to an operator, saying why", async () => {
  setVerificationProvider(noProvider);
  try {
    const isv = await api.newIsv();
    const { id } = await submittedMerchant(api, isv);
    const deadline = Date.now() + 10_000;
    let row: any;
    for (;;) {
      row = (await api.db.execute(sql`select underwriting, verification from merchants where id = ${id}`)).rows[0];
      if (row?.underwriting?.outcome === "manual_review" || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(row.underwriting.outcome).toBe("manual_review");
    expect(row.underwriting.reason).toContain("No verification provider is configured");
    expect(row.verification.map((c: any) => [c.type, c.status, c.code])).toEqual([
      ["business", "failed", "verification_unavailable"],
      ["identity", "failed", "verification_unavailable"],
      ["identity", "failed", "verification_unavailable"],
      ["bank_account", "failed", "verification_unavailable"],
      ["sanctions", "failed", "verification_unavailable"],
    ]);
    const m = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json;
    expect(m.lead_onboarding_status).toBe("COMPLETED");
  } finally {
    setVerificationProvider(undefined);
  }
});
