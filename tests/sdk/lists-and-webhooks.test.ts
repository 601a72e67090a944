import fs from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { generatedFiles, generateSdk } from "@/packages/node/codegen/generate";
import { Onb, OnbWebhookVerificationError, verifyWebhook, type WebhookEvent } from "@/packages/node/src/index";
import { embedTypesFile, embedTypesOf } from "@/packages/react/codegen/embed-types";

import { startTestApi, type TestApi } from "../helpers/api";
import { startReceiver } from "../helpers/receiver";

// The SDK's pagination over a long list, its webhook verification of the service's own deliveries,
// and the check that its generated files are what the served OpenAPI document makes.

let api: TestApi;
let onb: Onb;
const pages: string[] = [];

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  const isv = await api.newIsv("SDK lists ISV");
  onb = new Onb({
    baseUrl: api.baseUrl,
    accountSid: isv.account_sid,
    secretKey: isv.secret_key,
    fetch: (input, init) => {
      if ((init?.method ?? "GET") === "GET") pages.push(String(input).slice(api.baseUrl.length));
      return fetch(input, init);
    },
  });
});
afterAll(() => api?.close());

describe("pagination", () => {
  // 120 merchants in pages of 50 walk the same three pages 250 in pages of 100 did, in half the time
  // (creating them was the test's cost: 16-30 s on a loaded 2-core machine against a 30 s budget).
  test("for await walks 120 merchants page by page, each once; backwards from ending_before", async () => {
    const created: string[] = [];
    // Five at a time: the order of creation is the order the list answers (newest first).
    for (let i = 0; i < 120; i += 5) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, (_, j) =>
          onb.merchants.create({ phone: `+1415555${String(i + j).padStart(4, "0")}` }),
        ),
      );
      created.push(...batch.map((m) => m.id));
    }

    pages.length = 0;
    const seen: string[] = [];
    for await (const merchant of onb.merchants.list({ limit: 50 })) seen.push(merchant.id);
    expect(seen).toHaveLength(120);
    expect(new Set(seen)).toEqual(new Set(created));
    expect(pages).toHaveLength(3);
    expect(pages[0]).toBe("/v1/merchants?limit=50");
    expect(pages[1]).toBe(`/v1/merchants?limit=50&starting_after=${seen[49]}`);
    expect(pages[2]).toBe(`/v1/merchants?limit=50&starting_after=${seen[99]}`);

    // Awaited, a list is its first page.
    const first = await onb.merchants.list({ limit: 7 });
    expect(first.data.map((m) => m.id)).toEqual(seen.slice(0, 7));
    expect(first.has_more).toBe(true);

    // toArray, and a filter kept on every page.
    expect(await onb.merchants.list({ limit: 30, lead_onboarding_status: "NOT_STARTED" }).toArray()).toHaveLength(120);
    await expect(onb.merchants.list({ limit: 50 }).toArray({ max: 60 })).rejects.toThrow(RangeError);

    // Backwards: from the 100th, every newer one, in the order the pages give them.
    const newer: string[] = [];
    for await (const m of onb.merchants.list({ limit: 32, ending_before: seen[100] })) newer.push(m.id);
    expect(new Set(newer)).toEqual(new Set(seen.slice(0, 100)));
    expect(newer).toHaveLength(100);
  }, 60_000);
});

describe("webhooks.verify", () => {
  test("verifies the service's own deliveries and answers the typed event; a tampered one is refused", async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await onb.webhookEndpoints.create({ url: receiver.url, scopes: ["merchant"] });
      const secret = endpoint.secret;
      expect(secret).toMatch(/^whsec_/);
      const merchant = await onb.merchants.create({ phone: "+14155550999" });
      await receiver.waitFor((r) => r.some((d) => d.body.includes(merchant.id)));
      const delivery = receiver.received.find((d) => d.body.includes(merchant.id))!;

      const event: WebhookEvent = onb.webhooks.verify(delivery.body, delivery.headers, secret);
      expect(event.type).toBe("merchant.created");
      if (event.type !== "merchant.created") throw new Error("narrowing");
      // Narrowed on its type, data.object is the merchant.
      expect(event.data.object.id).toBe(merchant.id);
      // A fetch Headers object works too, and the bytes as well as the text.
      expect(verifyWebhook(new TextEncoder().encode(delivery.body), new Headers(delivery.headers), secret).id).toBe(
        event.id,
      );

      const tamperedBody = delivery.body.replace(merchant.id, "mer_someoneelse0000000000");
      expect(() => onb.webhooks.verify(tamperedBody, delivery.headers, secret)).toThrow(OnbWebhookVerificationError);
      expect(() => onb.webhooks.verify(delivery.body, delivery.headers, `whsec_${"A".repeat(43)}=`)).toThrow(
        /No signature matches/,
      );
      const { "webhook-signature": _, ...unsigned } = delivery.headers;
      expect(() => onb.webhooks.verify(delivery.body, unsigned, secret)).toThrow(/Missing/);
      // Replayed later than the tolerance: refused, though the signature holds.
      const later = new Date((Number(delivery.headers["webhook-timestamp"]) + 301) * 1000);
      expect(() => onb.webhooks.verify(delivery.body, delivery.headers, secret, { now: later })).toThrow(/too old/);
      expect(
        onb.webhooks.verify(delivery.body, delivery.headers, secret, { toleranceSeconds: 600, now: later }).id,
      ).toBe(event.id);
    } finally {
      await receiver.close();
    }
  });
});

describe("the generated SDK", () => {
  test("is what the served OpenAPI document makes (run npm run sdk:generate when this fails)", async () => {
    const document = await (await fetch(`${api.baseUrl}/v1/openapi.json`)).json();
    const files = await generateSdk(document);
    for (const file of generatedFiles) {
      const committed = fs.readFileSync(path.join(import.meta.dirname, "../../packages/node", file), "utf8");
      expect(committed === files[file], `packages/node/${file} differs: run npm run sdk:generate`).toBe(true);
    }
    // The React package's element types are the loader's, as the service serves them.
    const v1 = await (await fetch(`${api.baseUrl}/embed/v1.d.ts`)).text();
    const copy = fs.readFileSync(path.join(import.meta.dirname, "../../packages/react", embedTypesFile), "utf8");
    expect(copy === embedTypesOf(v1), `packages/react/${embedTypesFile} differs: run npm run sdk:generate`).toBe(true);
  });
});
