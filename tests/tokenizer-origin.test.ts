import http from "node:http";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import type { TestApi } from "./helpers/api";

// The card frame on its own origin (TOKENIZER_ORIGIN): served only there, framed only by the page
// origin it was asked for (the service's, or a verified custom domain over https), never by another.
process.env.TOKENIZER_ORIGIN = "http://tokenizer.localhost:3999";
process.env.PUBLIC_BASE_URL = "https://pay.example.test";

let api: TestApi;
let key: string;
beforeAll(async () => {
  const { startTestApi } = await import("./helpers/api");
  api = await startTestApi();
  const isv = await api.newIsv("Frame ISV");
  const merchant = await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } });
  key = merchant.json.payment.tokenizer_publishable_key;
});
afterAll(() => api.close());

/** GET the frame as a browser on `host` would ask for it (fetch cannot set Host). */
const frame = (host: string, origin: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const url = new URL(`${api.baseUrl}/tokenizer/card?key=${key}&locale=en&origin=${encodeURIComponent(origin)}`);
    http
      .get(url, { headers: { host } }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on("error", reject);
  });

describe("the card frame's own origin", () => {
  test("served on the tokenizer's host for the service's pages, with frame-ancestors naming that page only", async () => {
    const res = await frame("tokenizer.localhost:3999", "https://pay.example.test");
    expect(res.status).toBe(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("frame-ancestors https://pay.example.test;");
    expect(csp).toContain("script-src 'self'");
    expect(res.body).toContain('data-parent="https://pay.example.test"');
  });

  test("never on the pages' own host (a page there could read it), and never for an unknown page", async () => {
    expect((await frame("pay.example.test", "https://pay.example.test")).status).toBe(404);
    expect((await frame("tokenizer.localhost:3999", "https://evil.example")).status).toBe(400);
    // Nor for the tokenizer's own origin, nor a look-alike with a path or a port.
    expect((await frame("tokenizer.localhost:3999", "http://tokenizer.localhost:3999")).status).toBe(400);
    expect((await frame("tokenizer.localhost:3999", "https://pay.example.test/x")).status).toBe(400);
    expect((await frame("tokenizer.localhost:3999", "https://pay.example.test:8443")).status).toBe(400);
  });
});
