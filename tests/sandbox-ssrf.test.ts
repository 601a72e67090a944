import http from "node:http";
import type { AddressInfo } from "node:net";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import type { TestApi } from "./helpers/api";
import { until } from "./helpers/until";

// A shared sandbox (DATABASE_URL, SANDBOX_WEBHOOK_LOOPBACK unset, so "0"): ISVs may still send
// webhooks to this machine's loopback (a developer's tunnel), but they read only the status code of
// the answer, never its body; nothing else private is reachable (the address guard's own tests).
process.env.SANDBOX_WEBHOOK_LOOPBACK = "0";

let api: TestApi;
let webhookDeliveries: typeof import("@/lib/db/schema").webhookDeliveries;
const internal = http.createServer((req, res) =>
  req.resume().on("end", () => res.writeHead(200).end("internal admin page: password=hunter2")),
);

beforeAll(async () => {
  ({ webhookDeliveries } = await import("@/lib/db/schema"));
  const { startTestApi } = await import("./helpers/api");
  api = await startTestApi({ worker: true });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
}, 60_000);
afterAll(async () => {
  internal.close();
  await api.close();
});

describe("sandbox SSRF: what an ISV can learn of the platform's own machine", () => {
  test("a webhook to loopback is delivered, but its answer's body is not kept or shown: only the status code", async () => {
    const isv = await api.newIsv("Curious ISV");
    const url = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/admin`;
    const hook = await api.call("POST", "/v1/webhooks", { auth: isv.auth, body: { url, scopes: ["merchant"] } });
    expect(hook.status).toBe(200);
    await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } });
    await until(
      () => api.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.json.id)),
      (d) => d.length === 1 && d[0]!.status === "succeeded",
      10_000,
      "the delivery",
    );
    const listed = await api.call("GET", `/v1/webhooks/${hook.json.id}/deliveries`, { auth: isv.auth });
    expect(listed.json.data[0].attempts).toEqual([
      expect.objectContaining({ status_code: 200, response_excerpt: null }),
    ]);
    expect(listed.text).not.toContain("hunter2");
  });
});
