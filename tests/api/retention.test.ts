import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { cardTokens, events, idempotencyKeys, jobs, outbox, webhookAttempts, webhookDeliveries } from "@/lib/db/schema";
import { nextPurgeAt, purgeExpired, schedulePurge } from "@/lib/domain/retention/purge";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000);

describe("retention", () => {
  test("what is past its retention goes; what is not, and money, stays; old messages lose their link tokens", async () => {
    const account = createId("acct");
    const ids = {
      oldEvent: createId("evt"),
      pendingEvent: createId("evt"),
      newEvent: createId("evt"),
      oldJob: createId("job"),
      queuedJob: createId("job"),
    };
    await api.db.insert(events).values([
      {
        id: ids.oldEvent,
        accountId: account,
        type: "merchant.created",
        objectId: "mer_x",
        data: {},
        createdAt: daysAgo(91),
      },
      {
        id: ids.pendingEvent,
        accountId: account,
        type: "merchant.created",
        objectId: "mer_x",
        data: {},
        createdAt: daysAgo(91),
      },
      {
        id: ids.newEvent,
        accountId: account,
        type: "merchant.created",
        objectId: "mer_x",
        data: {},
        createdAt: daysAgo(89),
      },
    ]);
    const oldDelivery = createId("whd");
    const pendingDelivery = createId("whd");
    await api.db.insert(webhookDeliveries).values([
      {
        id: oldDelivery,
        webhookId: "we_x",
        accountId: account,
        eventId: ids.oldEvent,
        status: "succeeded",
        createdAt: daysAgo(31),
      },
      {
        id: pendingDelivery,
        webhookId: "we_x",
        accountId: account,
        eventId: ids.pendingEvent,
        status: "pending",
        createdAt: daysAgo(31),
      },
    ]);
    await api.db.insert(webhookAttempts).values({
      id: createId("wha"),
      deliveryId: oldDelivery,
      attemptedAt: daysAgo(31),
      durationMs: 5,
      statusCode: 200,
    });
    await api.db.insert(jobs).values([
      { id: ids.oldJob, type: "email", payload: {}, status: "done", createdAt: daysAgo(31) },
      {
        id: ids.queuedJob,
        type: "email",
        payload: {},
        status: "queued",
        createdAt: daysAgo(31),
        runAt: new Date(Date.now() + 3600_000),
      },
    ]);
    await api.db.insert(idempotencyKeys).values([
      { accountId: account, key: "old", method: "POST", path: "/v1/x", requestDigest: "d", createdAt: daysAgo(2) },
      { accountId: account, key: "new", method: "POST", path: "/v1/x", requestDigest: "d" },
    ]);
    const token = createId("tok");
    await api.db.insert(cardTokens).values({
      id: token,
      merchantId: (await anyMerchant())!,
      last4: "4242",
      fingerprint: "f",
      vault: {},
      expiresAt: daysAgo(2),
    });
    const link = "https://pay.example/onboard/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg";
    const oldMail = createId("msg");
    const newMail = createId("msg");
    const mail = (id: string, createdAt: Date) => ({
      id,
      accountId: account,
      kind: "onboarding_link",
      to: "m@example.com",
      subject: "s",
      text: `Open ${link}`,
      html: `<a href="${link}">x</a>`,
      locale: "en",
      transport: "outbox" as const,
      createdAt,
    });
    await api.db.insert(outbox).values([mail(oldMail, daysAgo(8)), mail(newMail, daysAgo(1))]);

    const counts = await purgeExpired(api.db);
    expect(counts).toMatchObject({
      idempotency_keys: expect.any(Number),
      jobs: expect.any(Number),
      events: expect.any(Number),
    });
    expect(
      (
        await api.db
          .select()
          .from(events)
          .where(inArray(events.id, Object.values(ids)))
      )
        .map((e) => e.id)
        .sort(),
    ).toEqual([ids.newEvent, ids.pendingEvent].sort());
    expect(
      (
        await api.db
          .select()
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.id, [oldDelivery, pendingDelivery]))
      ).map((d) => d.id),
    ).toEqual([pendingDelivery]);
    expect(await api.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, oldDelivery))).toEqual([]);
    expect(
      (
        await api.db
          .select()
          .from(jobs)
          .where(inArray(jobs.id, [ids.oldJob, ids.queuedJob]))
      ).map((j) => j.id),
    ).toEqual([ids.queuedJob]);
    expect(
      (await api.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, account))).map((k) => k.key),
    ).toEqual(["new"]);
    expect(await api.db.select().from(cardTokens).where(eq(cardTokens.id, token))).toEqual([]);
    const [old] = await api.db.select().from(outbox).where(eq(outbox.id, oldMail));
    expect(old!.text).toBe("Open https://pay.example/onboard/[redacted]");
    expect(old!.html).not.toContain("AbCdEf");
    const [recent] = await api.db.select().from(outbox).where(eq(outbox.id, newMail));
    expect(recent!.text).toContain(link);
  });

  test("one purge job a day at 03:00 UTC, however many instances ask", async () => {
    expect(nextPurgeAt(new Date("2026-11-22T02:59:00Z")).toISOString()).toBe("2026-11-22T03:00:00.000Z");
    expect(nextPurgeAt(new Date("2026-11-22T03:00:00Z")).toISOString()).toBe("2026-11-23T03:00:00.000Z");
    const from = new Date("2030-01-01T10:00:00Z");
    await Promise.all([schedulePurge(api.db, from), schedulePurge(api.db, from)]);
    const made = await api.db.select().from(jobs).where(eq(jobs.id, "job_retention_purge_2030-01-02"));
    expect(made).toHaveLength(1);
  });
});

async function anyMerchant() {
  const { merchants } = await import("@/lib/db/schema");
  const isv = await api.newIsv("Retention ISV");
  const m = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json;
  return (await api.db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, m.id)))[0]?.id;
}
