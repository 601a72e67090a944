import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { apiKeys } from "@/lib/db/schema";
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from "@/lib/domain/accounts/api-keys";

import { startTestApi, type TestApi } from "../helpers/api";
import { until } from "../helpers/until";

// Several named API keys per account (docs/reference.md section 23): restricted keys refused
// outside their permissions with nothing changed, rolled keys working until their chosen expiry,
// last_used_at, the last standard key kept.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

const basic = (sid: string, secret: string) => `Basic ${Buffer.from(`${sid}:${secret}`).toString("base64")}`;

describe("restricted keys", () => {
  test("a key with payments: read and webhooks: write does exactly that; refused elsewhere with 403 and nothing made", async () => {
    const isv = await api.newIsv("Restricted ISV");
    const key = await createApiKey(
      api.db,
      isv.account_id,
      { name: "Reporting", permissions: { payments: "read", webhooks: "write", merchants: "none" } },
      { live: false },
    );
    expect(key.secret).toMatch(/^rk_test_[0-9A-Za-z]{48}$/);
    expect(key.permissions).toEqual({ payments: "read", webhooks: "write" });
    const auth = basic(key.account_sid, key.secret);
    expect((await api.call("GET", "/v1/charges", { auth })).status).toBe(200);
    expect((await api.call("GET", "/v1/payment_requests", { auth })).status).toBe(200);
    const hook = await api.call("POST", "/v1/webhooks", {
      auth,
      body: { url: "https://hooks.example/r", scopes: ["merchant"] },
    });
    expect(hook.status).toBe(200);

    const refused = await api.call("POST", "/v1/merchants", { auth, body: { phone: "+14155550123" } });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "permission_denied" });
    expect(refused.json.error.message).toBe("This restricted key cannot write merchants: it needs merchants: write");
    expect((await api.call("GET", "/v1/merchants", { auth })).status).toBe(403);
    expect(
      (await api.call("POST", "/v1/scan_to_pay", { auth, body: { merchant_id: "mer_x", amount: 100 } })).status,
    ).toBe(403);
    expect((await api.call("GET", "/v1/account", { auth })).status).toBe(403);
    // Nothing was made by the refused calls.
    expect((await api.call("GET", "/v1/merchants", { auth: isv.auth })).json.data).toEqual([]);
    // An unknown path is still a 404.
    expect((await api.call("GET", "/v1/nothing_here", { auth })).status).toBe(404);
    // The standard key is untouched by any of it.
    expect((await api.call("GET", "/v1/merchants", { auth: isv.auth })).status).toBe(200);
  });

  test("bad permissions are refused and no key is made", async () => {
    const isv = await api.newIsv("Bad Perms ISV");
    await expect(
      createApiKey(api.db, isv.account_id, { name: "x", permissions: { team: "write" } }, { live: false }),
    ).rejects.toMatchObject({ param: "permissions.team" });
    await expect(
      createApiKey(api.db, isv.account_id, { name: "x", permissions: { payments: "all" } }, { live: false }),
    ).rejects.toMatchObject({ param: "permissions.payments" });
    await expect(
      createApiKey(api.db, isv.account_id, { name: "x", permissions: { payments: "none" } }, { live: false }),
    ).rejects.toMatchObject({ param: "permissions" });
    await expect(
      createApiKey(api.db, isv.account_id, { name: " ", permissions: null }, { live: false }),
    ).rejects.toMatchObject({ param: "name" });
    expect((await listApiKeys(api.db, isv.account_id)).length).toBe(1);
  });
});

describe("rolling, revoking, last use", () => {
  test("a rolled key's old secret works until its expiry, then is refused; the new one works", async () => {
    const isv = await api.newIsv("Roll ISV");
    const [standard] = await listApiKeys(api.db, isv.account_id);
    const now = new Date();
    const rolled = await rollApiKey(api.db, isv.account_id, standard!.id, 24, { live: false, now });
    expect(rolled.secret).toMatch(/^sk_test_/);
    expect(rolled.oldExpiresAt.getTime()).toBe(now.getTime() + 24 * 3_600_000);
    // Both work during the day.
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(200);
    expect((await api.call("GET", "/v1/account", { auth: basic(isv.account_sid, rolled.secret) })).status).toBe(200);
    // The day is over: the old secret opens nothing.
    await api.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, standard!.id));
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(401);
    expect((await api.call("GET", "/v1/account", { auth: basic(isv.account_sid, rolled.secret) })).status).toBe(200);
    expect((await listApiKeys(api.db, isv.account_id)).map((k) => k.id)).toEqual([rolled.id]);
    // Out of range expiries are refused.
    await expect(rollApiKey(api.db, isv.account_id, rolled.id, 169, { live: false })).rejects.toMatchObject({
      param: "expires_in_hours",
    });
    await expect(rollApiKey(api.db, isv.account_id, rolled.id, -1, { live: false })).rejects.toMatchObject({
      param: "expires_in_hours",
    });
    // Rolled "now": the old one stops at once.
    const again = await rollApiKey(api.db, isv.account_id, rolled.id, 0, { live: false });
    expect((await api.call("GET", "/v1/account", { auth: basic(isv.account_sid, rolled.secret) })).status).toBe(401);
    expect((await api.call("GET", "/v1/account", { auth: basic(isv.account_sid, again.secret) })).status).toBe(200);
  });

  test("the last standard key cannot be revoked; another ISV's key is 404; last_used_at is written", async () => {
    const isv = await api.newIsv("Revoke ISV");
    const [standard] = await listApiKeys(api.db, isv.account_id);
    await expect(revokeApiKey(api.db, isv.account_id, standard!.id)).rejects.toMatchObject({ code: "invalid_state" });
    const other = await api.newIsv("Other Keys ISV");
    await expect(revokeApiKey(api.db, other.account_id, standard!.id)).rejects.toMatchObject({
      code: "resource_missing",
    });
    await expect(rollApiKey(api.db, other.account_id, standard!.id, 1, { live: false })).rejects.toMatchObject({
      code: "resource_missing",
    });
    const second = await createApiKey(api.db, isv.account_id, { name: "Second", permissions: null }, { live: false });
    await revokeApiKey(api.db, isv.account_id, standard!.id);
    expect((await api.call("GET", "/v1/account", { auth: isv.auth })).status).toBe(401);
    const auth = basic(second.account_sid, second.secret);
    expect((await api.call("GET", "/v1/account", { auth })).status).toBe(200);
    const used = await until(
      async () => (await api.db.select().from(apiKeys).where(eq(apiKeys.id, second.id)))[0]?.lastUsedAt ?? null,
      (at) => at !== null,
    );
    expect(Math.abs(used!.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
