import fs from "node:fs";

import { afterAll, beforeAll, expect, test } from "vitest";

import * as sdk from "@/packages/node/src/index";

import { startTestApi, type TestApi } from "../helpers/api";

// The SDK README's first example ("Use") runs as written against the real HTTP app (issue 71: it
// once sent a field the API refuses): its code is read from the README, its import given the SDK,
// its base URL and credentials this test's. It runs up to where it waits for the merchant's
// approval; the rest of it is the same calls the flow test makes.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("README ISV");
});
afterAll(() => api?.close());

const readme = fs.readFileSync("packages/node/README.md", "utf8");

test("the README's first example creates a merchant and its onboarding link", async () => {
  const block = readme.split("## Use")[1]?.match(/```ts\n([\s\S]*?)```/)?.[1];
  expect(block, "the README's Use section has a ts example").toBeDefined();
  const [beforeApproval] = (block ?? "").split("// Send the merchant");
  const body = (beforeApproval ?? "")
    .replace(/^import \{ Onb \} from "@onb\/node";$/m, "")
    .replace('"http://localhost:3000"', JSON.stringify(api.baseUrl));
  expect(body).not.toContain("import ");
  // Plain JavaScript once its import is gone: run as the body of an async function.
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<unknown>;
  const run = new AsyncFunction("Onb", "process", `${body}\nreturn { merchant, link };`);
  const env = { ONB_ACCOUNT_SID: isv.account_sid, ONB_SECRET_KEY: isv.secret_key };
  const { merchant, link } = (await run(sdk.Onb, { env })) as { merchant: { id: string }; link: { url: string } };
  expect(merchant.id).toMatch(/^mer_/);
  expect(link.url).toMatch(/\/onboard\/\w+/);
});
