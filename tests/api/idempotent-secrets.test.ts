import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { idempotencyKeys } from "@/lib/db/schema";
import { randomBase62 } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant } from "../helpers/payments";

// The attack: with an Idempotency-Key, the stored answer kept secrets shown once (an account
// session's client secret, a login link, a webhook's signing secret, an onboarding link's url) in
// clear for 24 hours, readable in the database's files. Stored answers are sealed; a replay still
// gives the client what it missed.
let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchantId: string;
let newMerchantId: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv();
  merchantId = (await approvedMerchant(api, isv)).id;
  newMerchantId = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } })).json
    .id;
  await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: { settings: { embed_allowed_origins: ["https://isv.example"] } },
  });
}, 60_000);
afterAll(() => api.close());

/** Every text the database holds for the stored answers, and (PGlite) every byte of its files. */
async function assertNowhereInDatabase(secret: string) {
  const rows = await api.db.select({ body: sql<string>`${idempotencyKeys.responseBody}::text` }).from(idempotencyKeys);
  for (const row of rows) expect(row.body ?? "").not.toContain(secret);
  if (api.handle.kind === "pglite") {
    await api.db.execute(sql`checkpoint`);
    const needle = Buffer.from(secret);
    for (const entry of fs.readdirSync(process.env.DATA_DIR!, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      expect(fs.readFileSync(path.join(entry.parentPath, entry.name)).includes(needle), entry.name).toBe(false);
    }
  }
}

const calls: { name: string; path: () => string; body: () => unknown; secret: (json: any) => string }[] = [
  {
    name: "POST /v1/account_sessions (client_secret)",
    path: () => "/v1/account_sessions",
    body: () => ({ merchant_id: merchantId, components: { payments: { enabled: true } } }),
    secret: (json) => json.client_secret,
  },
  {
    name: "POST /v1/merchants/{id}/login_links (url)",
    path: () => `/v1/merchants/${merchantId}/login_links`,
    body: () => ({}),
    secret: (json) => new URL(json.url).pathname.split("/").at(-1)!,
  },
  {
    name: "POST /v1/webhooks (signing secret)",
    path: () => "/v1/webhooks",
    body: () => ({ url: `https://hooks.example/${randomBase62(6)}`, scopes: ["merchant"] }),
    secret: (json) => json.secret,
  },
  {
    name: "POST /v1/onboarding_links (url)",
    path: () => "/v1/onboarding_links",
    body: () => ({ merchant_id: newMerchantId, type: "account_onboarding" }),
    secret: (json) => new URL(json.url).pathname.split("/").at(-1)!,
  },
];

test.each(calls)(
  "$name with an Idempotency-Key: the secret is in no stored answer, a replay still shows it",
  async (c) => {
    const key = `k-${randomBase62(12)}`;
    const body = c.body();
    const first = await api.call("POST", c.path(), { auth: isv.auth, body, headers: { "idempotency-key": key } });
    expect([200, 201]).toContain(first.status);
    const secret = c.secret(first.json);
    expect(secret.length).toBeGreaterThanOrEqual(16);
    await assertNowhereInDatabase(secret);
    const replay = await api.call("POST", c.path(), { auth: isv.auth, body, headers: { "idempotency-key": key } });
    expect(replay.status).toBe(first.status);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(first.json);
  },
);
