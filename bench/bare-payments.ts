import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";

import { sql } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";

// The baseline for payment request creation: node:http answering POST /v1/scan_to_pay with the SQL
// the API runs (the API-key lookup, the merchant, the ISV's branding; then in one transaction the
// request, its event, the webhook fan-out query and the expiry job), through the same driver, and
// nothing else: no validation library, no framework, no serializer.
const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR!,
  migrate: false,
  poolSize: 10,
});
const db = handle.db;
const id = (prefix: string) => `${prefix}_${randomBytes(16).toString("base64url").slice(0, 22)}`;
const rows = (r: unknown) => ((r as { rows?: unknown[] }).rows ?? r) as Record<string, any>[];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const decoded = Buffer.from((req.headers.authorization ?? "").slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const keys = rows(
      await db.execute(
        sql`select a.id, a.type, a.parent_id, k.secret_digest from accounts a join api_keys k on k.account_id = a.id and k.revoked_at is null where a.sid = ${decoded.slice(0, colon)}`,
      ),
    );
    const digest = createHash("sha256")
      .update(decoded.slice(colon + 1))
      .digest("hex");
    const key = keys.find((r) => timingSafeEqual(Buffer.from(String(r.secret_digest)), Buffer.from(digest)));
    if (!key) return void res.writeHead(401).end();
    const [merchant] = rows(
      await db.execute(sql`select * from merchants where isv_account_id = ${key.id} and id = ${body.merchant_id}`),
    );
    if (!merchant || merchant.lead_onboarding_status !== "APPROVED") return void res.writeHead(403).end();
    const [isv] = rows(await db.execute(sql`select defaults from accounts where id = ${key.id}`));
    const amount = body.items.reduce(
      (s: number, i: { quantity: number; unit_price: number }) => s + i.quantity * i.unit_price,
      0,
    );
    const tax = Math.round((amount * Number(body.taxPercent)) / 100);
    const prId = id("pr");
    const now = new Date();
    const expires = new Date(now.getTime() + 7 * 86400_000);
    const created = await db.transaction(async (tx) => {
      const [row] = rows(
        await tx.execute(
          sql`insert into payment_requests (id, isv_account_id, merchant_id, payment_type, status, amount, tax, tip, items, tax_percent, created_at, expires_at) values (${prId}, ${key.id}, ${merchant.id}, 'SCAN_TO_PAY', 'PENDING', ${amount}, ${tax}, ${body.tip}, ${JSON.stringify(body.items)}::jsonb, ${body.taxPercent}, ${now}, ${expires}) returning *`,
        ),
      );
      const json = {
        object: "payment_request",
        id: prId,
        merchant_id: merchant.id,
        amount,
        tax,
        tip: body.tip,
        total: amount + tax + body.tip,
        status: "PENDING",
        defaults: isv!.defaults.custom_domain ?? null,
      };
      await tx.execute(
        sql`insert into events (id, account_id, type, object_id, data) values (${id("evt")}, ${key.id}, 'payment_request.created', ${prId}, ${JSON.stringify(json)}::jsonb)`,
      );
      await tx.execute(
        sql`select id, scopes from webhooks where account_id = ${key.id} and status = 'enabled' and deleted_at is null`,
      );
      await tx.execute(
        sql`insert into jobs (id, type, payload, run_at, max_attempts, priority) values (${id("job")}, 'payment_request_expiry', ${JSON.stringify({ payment_request_id: prId })}::jsonb, ${expires}, 10, 20)`,
      );
      return { ...json, created_at: new Date(row!.created_at).toISOString() };
    });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(created));
  });
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
