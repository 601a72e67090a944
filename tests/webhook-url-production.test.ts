import { beforeAll, describe, expect, test } from "vitest";

// A production deployment: webhook urls must be https and resolve to public addresses.
process.env.APP_ENV = "production";
// Production refuses the suites' cheap password hashes (tests/setup-env.ts).
process.env.PASSWORD_HASH_COST = "standard";
process.env.JWT_SECRET = "x".repeat(40);
process.env.ENCRYPTION_KEY = "ab".repeat(32);

let assertWebhookUrl: (url: string) => Promise<void>;
beforeAll(async () => {
  ({ assertWebhookUrl } = await import("@/lib/domain/webhooks/create-webhook"));
});

describe("webhook urls in production", () => {
  test.each([
    ["http://example.com/hooks", /https/],
    ["https://localhost/hooks", /private|resolve/],
    ["https://127.0.0.1/hooks", /private/],
    ["https://10.0.0.8/hooks", /private/],
    ["https://[::1]/hooks", /private/],
    ["https://169.254.169.254/latest/meta-data", /private/],
  ])("%s is refused", async (url, message) => {
    await expect(assertWebhookUrl(url)).rejects.toMatchObject({
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "url",
      message,
    });
  });
  test("a public https address is accepted", async () => {
    await expect(assertWebhookUrl("https://8.8.8.8/hooks")).resolves.toBeUndefined();
  });
});
