import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestApi, type TestApi } from "../helpers/api";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ rateLimitPerSecond: 5 });
});
afterAll(() => api.close());

test("GET /v1/account beyond the per-account limit answers 429 with Retry-After, other accounts unaffected", async () => {
  const isv = await api.newIsv();
  const other = await api.newIsv();
  const answers = await Promise.all(Array.from({ length: 12 }, () => api.call("GET", "/v1/account", { auth: isv.auth })));
  const limited = answers.filter((a) => a.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(5);
  expect(limited[0]!.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(limited[0]!.json.error).toMatchObject({ type: "rate_limit_error" });
  expect((await api.call("GET", "/v1/account", { auth: other.auth })).status).toBe(200);
});
