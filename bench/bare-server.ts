import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";

import { openDatabase } from "../lib/db/client";

// The baseline: node:http answering GET /v1/account (and GET /v1/merchants/{id}, POST /v1/merchants) with the same SQL, through the same driver,
// as the API (the API-key lookup, which reads the account with the key), and nothing else.
const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR!,
  migrate: false,
  poolSize: 10,
});

const authSql =
  'select "accounts"."id", "accounts"."type", "accounts"."parent_id", "accounts"."sid", "accounts"."name", "accounts"."defaults", "accounts"."default_capabilities", "accounts"."settings", "accounts"."custom_domain", "accounts"."created_at", "accounts"."updated_at", "api_keys"."secret_digest" from "accounts" inner join "api_keys" on ("api_keys"."account_id" = "accounts"."id" and "api_keys"."revoked_at" is null) where "accounts"."sid" = $1';

// The merchant's payout settings, their own table (lib/domain/payouts/settings.ts), as the API reads them.
const payoutSettingsSql =
  'select "owner_id", "automatic", "frozen_at", "bank_account_hold_until" from "payout_settings" where "payout_settings"."owner_id" = $1';

const merchantSql =
  'select "id", "isv_account_id", "lead_id", "phone", "agent", "lead_onboarding_status", "deactivated", "application", "default_capabilities", "requirements", "payment", "payment_keys", "device_selection", "device_id", "device_imei", "device_imei_source", "device_catalog_id", "device_imei_status", "device_created_at", "device_updated_at", "agreement", "underwriting", "merchant_account_id", "submitted_at", "created_at", "updated_at" from "merchants" where ("merchants"."isv_account_id" = $1 and "merchants"."id" = $2)';

// Named prepared statements on PostgreSQL, as the API's hot path uses.
const pool = handle.pool;
const run = (name: string, text: string, values: unknown[]) =>
  pool ? pool.query({ name, text, values }) : handle.query(text, values);

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
  const [row] = (await run("bare_create_merchant", createSql, values)).rows as { lead_id: string }[];
  merchant.lead_id = Number(row!.lead_id);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(merchant));
}

const server = http.createServer(async (req, res) => {
  const header = req.headers.authorization ?? "";
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const rows = (await run("auth_keys_by_sid", authSql, [decoded.slice(0, colon)])).rows;
  const digest = createHash("sha256")
    .update(decoded.slice(colon + 1))
    .digest("hex");
  const key = rows.find((r) => timingSafeEqual(Buffer.from(String(r.secret_digest)), Buffer.from(digest)));
  if (!key) {
    res.writeHead(401).end();
    return;
  }
  const a = key as any;
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
  // GET /v1/merchants/{id}: the same second query as the API, the row as JSON.
  if (req.url?.startsWith("/v1/merchants/")) {
    const [m] = (await run("merchant_by_id", merchantSql, [a.id, req.url.slice("/v1/merchants/".length)]))
      .rows as any[];
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const [settings] = (await run("payout_settings_of", payoutSettingsSql, [m.id])).rows as any[];
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "merchant",
        ...m,
        automatic_payouts: settings?.automatic ?? true,
        created_at: new Date(m.created_at).toISOString(),
        updated_at: new Date(m.updated_at).toISOString(),
      }),
    );
    return;
  }
  // Whether its payouts are frozen: its payout settings, as the API reads them.
  const [payoutSettings] = (await run("payout_settings_of", payoutSettingsSql, [a.id])).rows as any[];
  const body = JSON.stringify({
    object: "account",
    id: a.id,
    type: a.type,
    account_sid: a.sid,
    name: a.name,
    defaults: a.defaults,
    default_capabilities: a.default_capabilities,
    settings: a.settings,
    payouts_frozen_at: payoutSettings?.frozen_at ?? null,
    created_at: new Date(a.created_at).toISOString(),
  });
  res.writeHead(200, { "content-type": "application/json" }).end(body);
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.send?.("ready"));
process.on("SIGTERM", async () => {
  server.close();
  await handle.close();
  process.exit(0);
});
