import fs from "node:fs";
import type { AddressInfo } from "node:net";

import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { eq, sql } from "drizzle-orm";

import { createApi } from "../lib/api/app";
import { openDatabase } from "../lib/db/client";
import { merchants, refunds as refundsTable } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { settleAll } from "../lib/domain/settlements/run-settlement";
import { benchDataDir, insertPaidCharges } from "./harness";
import { scaled } from "./short";

// Refund creation through the API (1-cent refunds spread over many charges, 10 at a time), then the
// daily settlement of 10,000 charges and those refunds, timed, on each database.

export type SettlementBench = {
  kind: string;
  charges: number;
  refundRps: number;
  refundP50: number;
  refundP99: number;
  refunds: number;
  settleSeconds: number;
};

export async function benchRefundsAndSettlement(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
  count = scaled(10_000, 300),
): Promise<SettlementBench> {
  const dataDir = await benchDataDir("onb-bench-stl-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Settlement bench",
      email: `stl-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const { row } = await createMerchant(db, await getAccount(db, isv.account_id), { phone: "+14155550123" } as never);
    await db
      .update(merchants)
      .set({
        status: "APPROVED",
        paymentKeys: {
          pub_api_key: "pk_test_bench",
          api_key_last4: "0000",
          gateway_merchant_id: "gw_bench",
          processors: [],
        },
      })
      .where(eq(merchants.id, row.id));
    // A day of card charges: the requests they paid and the charges, in batches.
    const ids = await insertPaidCharges(db, {
      isvAccountId: isv.account_id,
      merchantId: row.id,
      count,
      at: new Date(),
    });

    const app = createApi({ handle, rateLimitPerSecond: 1_000_000_000 });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((r) => server.once("listening", () => r()));
    const auth = `Basic ${Buffer.from(`${isv.account_sid}:${isv.secret_key}`).toString("base64")}`;
    let next = 0;
    let refunds = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/refunds`,
      method: "POST",
      connections: 10,
      duration: Number(process.env.BENCH_SECONDS ?? 8),
      headers: { authorization: auth, "content-type": "application/json" },
      requests: [
        {
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ charge_id: ids[next++ % ids.length], amount: 1 }) }),
        },
      ],
    });
    await new Promise((r) => server.close(r));
    // Requests still in flight when the run ended completed too: count what was refunded.
    const refunded = async () =>
      (
        await db
          .select({ n: sql<number>`coalesce(sum(${refundsTable.amount}), 0)::int` })
          .from(refundsTable)
          .where(eq(refundsTable.merchantId, row.id))
      )[0]!.n;
    for (let last = -1; (refunds = await refunded()) !== last; last = refunds)
      await new Promise((r) => setTimeout(r, 300));

    const started = process.hrtime.bigint();
    const made = await settleAll(db, new Date(Date.now() + 1000), { merchantId: row.id });
    const settleSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (made.length !== 1 || made[0]!.chargeCount !== count || made[0]!.refunds !== refunds) {
      throw new Error(
        `settlement does not add up: ${JSON.stringify(made[0])} (expected ${count} charges, ${refunds} cents of refunds)`,
      );
    }
    return {
      kind,
      charges: count,
      refundRps: result.requests.average,
      refundP50: result.latency.p50,
      refundP99: result.latency.p99,
      refunds,
      settleSeconds,
    };
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printSettlement(results: SettlementBench[]) {
  console.log(
    "\nRefunds (POST /v1/refunds, 1 cent each over many charges, 10 connections) and the settlement of a day of charges with those refunds",
  );
  console.log(
    `${"database".padEnd(12)} ${"refunds/s".padStart(10)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"charges".padStart(8)} ${"settle s".padStart(9)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${r.refundRps.toFixed(0).padStart(10)} ${String(r.refundP50).padStart(7)} ${String(r.refundP99).padStart(7)} ${String(r.charges).padStart(8)} ${r.settleSeconds.toFixed(2).padStart(9)}`,
    );
}
