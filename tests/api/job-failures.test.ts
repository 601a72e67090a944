import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { jobs } from "@/lib/db/schema";
import { startWorker } from "@/lib/jobs/runner";
import { jobRegistry } from "@/lib/workers/registry";

import { startTestApi, type TestApi } from "../helpers/api";
import { submittedMerchant } from "../helpers/onboarding";
import { startReceiver } from "../helpers/receiver";
import { until } from "../helpers/until";

// Handlers that throw what real ones can throw (a dropped database connection, a bug): the runner
// must retry them, and a job that ends for good must leave its records honest.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let worker: ReturnType<typeof startWorker>;
const faults = { underwritingBlips: 1, underwritingCalls: 0, deliveriesBroken: false };

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Blip POS");
  worker = startWorker(api.handle, {
    pollMs: 20,
    types: {
      ...jobRegistry,
      underwriting: {
        ...jobRegistry.underwriting,
        handler: async (db, payload, job) => {
          faults.underwritingCalls++;
          if (faults.underwritingBlips-- > 0) throw new Error("Connection terminated unexpectedly");
          return jobRegistry.underwriting.handler(db, payload, job);
        },
      },
      webhook_delivery: {
        ...jobRegistry.webhook_delivery,
        handler: async (db, payload, job) => {
          if (faults.deliveriesBroken) throw new Error("secret could not be decrypted");
          return jobRegistry.webhook_delivery.handler(db, payload, job);
        },
      },
    },
  });
});
afterAll(async () => {
  await worker.stop();
  await api.close();
});

describe("job failures", () => {
  test("an underwriting handler that throws an unknown error once is retried, and the merchant is approved", async () => {
    const { id } = await submittedMerchant(api, isv);
    const merchant = await until(
      async () => (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json,
      (m) => m.lead_onboarding_status !== "COMPLETED",
    );
    expect(merchant.lead_onboarding_status).toBe("APPROVED");
    // Underwriting runs on submission (and waits for the verification checks) and again after the
    // last check: the job the blip hit was tried again and finished.
    const mine = await until(
      async () =>
        (await api.db.select().from(jobs).where(eq(jobs.type, "underwriting"))).filter(
          (j) => (j.payload as { merchant_id: string }).merchant_id === id,
        ),
      (list) => list.every((j) => j.status === "done"),
    );
    expect(mine.map((j) => [j.status, j.attempts, j.lastError]).sort()).toEqual([
      ["done", 1, null],
      ["done", 2, null],
    ]);
    expect(faults.underwritingCalls).toBe(3);
  });

  test("a delivery whose job fails for good is `failed`, and a manual replay delivers it", async () => {
    const receiver = await startReceiver();
    try {
      const hook = (
        await api.call("POST", "/v1/webhooks", { auth: isv.auth, body: { url: receiver.url, scopes: ["merchant"] } })
      ).json;
      faults.deliveriesBroken = true;
      const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } }))
        .json;
      const deliveries = await until(
        async () => (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: isv.auth })).json.data,
        (d: any[]) => d.length === 1 && d[0].status !== "pending",
      );
      expect(deliveries[0]).toMatchObject({ status: "failed", event_id: expect.stringMatching(/^evt_/) });
      const [job] = (await api.db.select().from(jobs).where(eq(jobs.type, "webhook_delivery"))).filter(
        (j) => (j.payload as { delivery_id: string }).delivery_id === deliveries[0].id,
      );
      expect(job).toMatchObject({
        status: "failed",
        attempts: jobRegistry.webhook_delivery.maxAttempts,
        lastError: "secret could not be decrypted",
      });
      expect(receiver.received).toHaveLength(0);

      faults.deliveriesBroken = false;
      const retry = await api.call("POST", `/v1/webhooks/${hook.id}/deliveries/${deliveries[0].id}/retry`, {
        auth: isv.auth,
      });
      expect(retry.status).toBe(200);
      expect(retry.json.status).toBe("pending");
      await receiver.waitFor((r) => r.length === 1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
        type: "merchant.created",
        data: { object: { id: merchant.id } },
      });
      const after = await until(
        async () => (await api.call("GET", `/v1/webhooks/${hook.id}/deliveries`, { auth: isv.auth })).json.data,
        (d: any[]) => d[0].status !== "pending",
      );
      expect(after[0].status).toBe("succeeded");
    } finally {
      faults.deliveriesBroken = false;
      await receiver.close();
    }
  });
});
