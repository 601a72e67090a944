import { afterAll, beforeAll, expect, test } from "vitest";

// A production deployment: no test helpers, magic TINs are ordinary numbers.
process.env.APP_ENV = "production";
process.env.JWT_SECRET = "p".repeat(40);
process.env.ENCRYPTION_KEY = "cd".repeat(32);
const { startTestApi } = await import("./helpers/api");
let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

test.each([
  ["GET", "/v1/test_helpers/outbox"],
  ["POST", "/v1/test_helpers/merchants/mer_x/approve"],
  ["POST", "/v1/test_helpers/terminals/tml_x/present_card"],
])("%s %s answers 404 in production", async (method, path) => {
  const isv = await api.newIsv();
  const res = await api.call(method, path, { auth: isv.auth, body: method === "POST" ? {} : undefined });
  expect(res.status).toBe(404);
  expect(res.json.error.type).toBe("not_found_error");
});

test("production keys are live keys", async () => {
  const isv = await api.newIsv();
  expect(isv.secret_key).toMatch(/^sk_(test|live)_/);
  const m = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  expect(m.payment.tokenizer_publishable_key).toMatch(/^pk_live_/);
});
