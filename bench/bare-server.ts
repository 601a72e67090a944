import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";

import { openDatabase } from "../lib/db/client";
import { keysBySid } from "../lib/domain/accounts/authenticate-api-key";
import { merchantById } from "../lib/domain/merchants/find-merchant";
import { settingsByOwner } from "../lib/domain/payouts/settings";

// The baseline: node:http answering GET /v1/account (and GET /v1/merchants/{id}, POST /v1/merchants) with the same SQL, through the same driver,
// as the API (the API-key lookup, which reads the account with the key), and nothing else.
const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR!,
  migrate: false,
  poolSize: 10,
});

// The API's own statements (their text taken from its prepared statements, so that the two never
// drift apart): the key lookup with the whole account row, the payout settings, the merchant.
const authSql = keysBySid(handle.db).getQuery().sql;
const payoutSettingsSql = settingsByOwner(handle.db).getQuery().sql;
const merchantSql = merchantById(handle.db).getQuery().sql;

// Named prepared statements on PostgreSQL, as the API's hot path uses; rows as arrays, as drizzle
// reads them.
type Rows = { rows: unknown[][]; fields: { name: string }[] };
const pool = handle.pool;
const pglite = handle.pglite;
const run = (name: string, text: string, values: unknown[]): Promise<Rows> =>
  pool
    ? (pool.query({ name, text, values, rowMode: "array" }) as unknown as Promise<Rows>)
    : (pglite!.query(text, values, { rowMode: "array" }) as Promise<Rows>);
/** A row as an object of its columns (the first of two alike named: the account's id, not its key's). */
const objectOf = (result: Rows, row: unknown[], end = row.length) => {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < end; i++) {
    const name = result.fields[i]!.name;
    if (!(name in out)) out[name] = row[i];
  }
  return out;
};

// POST /v1/merchants: the statement the API sends (lib/domain/merchants/create-merchant.ts and
// lib/domain/events/record-event.ts), written out by hand: number the lead, insert the merchant,
// record merchant.created with a delivery and its job per subscribed webhook.
const createSql = `
  with new_lead as (select nextval(pg_get_serial_sequence('merchants', 'lead_id')) as lead_id),
  new_merchant as (
    insert into merchants (id, isv_account_id, lead_id, phone, lead_onboarding_status, application, default_capabilities, payment, created_at, updated_at)
    values ($1, $2, (select lead_id from new_lead), $3, 'NOT_STARTED', $4::jsonb, $5::jsonb, $6::jsonb, $7, $7)
  ),
  new_events as (
    select $8::text as id, $2::text as account_id, 'merchant.created'::text as type, $1::text as object_id,
      jsonb_set($9::jsonb, '{lead_id}', to_jsonb((select lead_id from new_lead))) as data, 'merchant'::text as scope
  ),
  recorded_events as (insert into events (id, account_id, type, object_id, data) select id, account_id, type, object_id, data from new_events),
  targets as (
    select webhooks.id, webhooks.url, new_events.id as event_id, new_events.account_id from new_events
    join webhooks on webhooks.account_id = new_events.account_id and webhooks.status = 'enabled' and webhooks.deleted_at is null
      and webhooks.scopes @> jsonb_build_array(new_events.scope)
  ),
  event_deliveries as (
    insert into webhook_deliveries (id, webhook_id, account_id, event_id, next_attempt_at)
    select 'whd_' || substr(md5(targets.event_id || targets.id), 1, 22), targets.id, targets.account_id, targets.event_id, now() from targets
    returning id, webhook_id, event_id
  ),
  event_jobs as (
    insert into jobs (id, type, payload, max_attempts, priority, concurrency_keys)
    select 'job_' || substr(md5('job' || event_deliveries.id), 1, 22), 'webhook_delivery', jsonb_build_object('delivery_id', event_deliveries.id), 8, 100,
      array['account:' || targets.account_id, 'host:' || lower(coalesce(substring(targets.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)'), targets.url))]
    from event_deliveries join targets on targets.id = event_deliveries.webhook_id and targets.event_id = event_deliveries.event_id
  )
  select lead_id from new_lead`;
const id = (prefix: string) => `${prefix}_${randomBytes(16).toString("base64url").slice(0, 22)}`;
const due = [
  "legal_business_name",
  "legal_phone",
  "business_type",
  "bank_account",
  "tin",
  "tin_type",
  "business_established_date",
  "legal_business_address",
  "owner_one",
  "main_product",
  "main_contact_person",
  "current_sales",
];

async function createMerchant(a: any, body: string, res: http.ServerResponse) {
  const input = JSON.parse(body) as { phone?: string };
  if (typeof input.phone !== "string") {
    res.writeHead(400).end();
    return;
  }
  const now = new Date();
  const merchantId = id("mer");
  const application = { capabilities: { types: a.default_capabilities.types } };
  const payment = {
    tokenizer_publishable_key: `pk_test_${randomBytes(24).toString("base64url").slice(0, 32)}`,
    tokenizer_active: false,
    terminal_id: null,
  };
  const merchant = {
    object: "merchant",
    id: merchantId,
    phone: input.phone,
    automatic_payouts: true,
    deactivated: false,
    created_at: now.toISOString(),
    lead_id: 0,
    lead_onboarding_status: "NOT_STARTED",
    merchant: { ...Object.fromEntries(due.map((k) => [k, null])), capabilities: application.capabilities },
    payment: { tokenizer_publishable_key: payment.tokenizer_publishable_key, terminal_id: null },
    defaults: a.defaults,
    default_capabilities: a.default_capabilities,
    payment_keys: { pub_api_key: null, api_key: null, gateway_merchant_id: null, processors: [] },
    device_selection: null,
    agent: null,
    requirements: {
      currently_due: [...due.map((k) => `merchant.${k}`), "device"],
      errors: [],
      disabled_reason: "onboarding_incomplete",
    },
    updated_at: now.toISOString(),
  };
  const values = [
    merchantId,
    a.id,
    input.phone,
    JSON.stringify(application),
    JSON.stringify(a.default_capabilities),
    JSON.stringify(payment),
    now,
    id("evt"),
    JSON.stringify(merchant),
  ];
  const [row] = (await run("bare_create_merchant", createSql, values)).rows;
  merchant.lead_id = Number(row![0]);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(merchant));
}

const server = http.createServer(async (req, res) => {
  const header = req.headers.authorization ?? "";
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const keys = await run("auth_keys_by_sid", authSql, [decoded.slice(0, colon)]);
  const digestAt = keys.fields.findIndex((f) => f.name === "secret_digest");
  const digest = createHash("sha256")
    .update(decoded.slice(colon + 1))
    .digest("hex");
  const key = keys.rows.find((r) => timingSafeEqual(Buffer.from(String(r[digestAt])), Buffer.from(digest)));
  if (!key) {
    res.writeHead(401).end();
    return;
  }
  // The account's columns come first, then the key's.
  const a = objectOf(keys, key, digestAt) as any;
  if (req.method === "POST" && req.url === "/v1/merchants") {
    // A request cut off by the load generator at the end of a run is dropped, as the API drops it.
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      await createMerchant(a, Buffer.concat(chunks).toString("utf8"), res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
    return;
  }
  // GET /v1/merchants/{id}: the same second and third queries as the API, the row as JSON.
  if (req.url?.startsWith("/v1/merchants/")) {
    const found = await run("merchant_by_id", merchantSql, [a.id, req.url.slice("/v1/merchants/".length)]);
    if (!found.rows[0]) {
      res.writeHead(404).end();
      return;
    }
    const m = objectOf(found, found.rows[0]) as any;
    const settings = await run("payout_settings_by_owner", payoutSettingsSql, [m.id]);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "merchant",
        ...m,
        payout_settings: settings.rows[0] ? objectOf(settings, settings.rows[0]) : null,
        created_at: new Date(m.created_at).toISOString(),
        updated_at: new Date(m.updated_at).toISOString(),
      }),
    );
    return;
  }
  // The account's every column and its payout settings, as the API reads them.
  const settings = await run("payout_settings_by_owner", payoutSettingsSql, [a.id]);
  const body = JSON.stringify({
    object: "account",
    ...a,
    payout_settings: settings.rows[0] ? objectOf(settings, settings.rows[0]) : null,
    created_at: new Date(a.created_at).toISOString(),
  });
  res.writeHead(200, { "content-type": "application/json" }).end(body);
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", async () => {
  // The requests still running finish before the pool ends (a load run's last ones).
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  await handle.close();
  process.exit(0);
});
