import http from "node:http";
import { createHash, timingSafeEqual } from "node:crypto";
import { openDatabase } from "../lib/db/client";

// The baseline: node:http answering GET /v1/account (and GET /v1/merchants/{id}) with the same SQL, through the same driver,
// as the API (the API-key lookup, which reads the account with the key), and nothing else.
const handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR!, migrate: false, poolSize: 10 });

const authSql =
  'select "accounts"."id", "accounts"."type", "accounts"."parent_id", "accounts"."sid", "accounts"."name", "accounts"."defaults", "accounts"."default_capabilities", "accounts"."settings", "accounts"."custom_domain", "accounts"."created_at", "accounts"."updated_at", "api_keys"."secret_digest" from "accounts" inner join "api_keys" on ("api_keys"."account_id" = "accounts"."id" and "api_keys"."revoked_at" is null) where "accounts"."sid" = $1';

const merchantSql =
  'select "id", "isv_account_id", "lead_id", "phone", "agent", "lead_onboarding_status", "automatic_payouts", "deactivated", "application", "default_capabilities", "requirements", "payment", "payment_keys", "device_selection", "device_id", "device_imei", "device_imei_source", "device_catalog_id", "device_imei_status", "device_created_at", "device_updated_at", "agreement", "underwriting", "merchant_account_id", "submitted_at", "created_at", "updated_at" from "merchants" where ("merchants"."isv_account_id" = $1 and "merchants"."id" = $2)';

// Named prepared statements on PostgreSQL, as the API's hot path uses.
const pool = handle.pool;
const run = (name: string, text: string, values: unknown[]) => (pool ? pool.query({ name, text, values }) : handle.query(text, values));

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
  // GET /v1/merchants/{id}: the same second query as the API, the row as JSON.
  if (req.url?.startsWith("/v1/merchants/")) {
    const [m] = (await run("merchant_by_id", merchantSql, [a.id, req.url.slice("/v1/merchants/".length)])).rows as any[];
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "merchant", ...m, created_at: new Date(m.created_at).toISOString(), updated_at: new Date(m.updated_at).toISOString() }));
    return;
  }
  const body = JSON.stringify({
    object: "account",
    id: a.id,
    type: a.type,
    account_sid: a.sid,
    name: a.name,
    defaults: a.defaults,
    default_capabilities: a.default_capabilities,
    settings: a.settings,
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
