import fs from "node:fs";

import { eq } from "drizzle-orm";

import { openDatabase } from "../lib/db/client";
import { merchants } from "../lib/db/schema";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { getAccount } from "../lib/domain/accounts/get-account";
import { updateAccount } from "../lib/domain/accounts/update-account";
import { createMerchant } from "../lib/domain/merchants/create-merchant";
import { createScopedPaymentRequest } from "../lib/domain/payments/create-payment-request";
import { presentCard } from "../lib/domain/payments/present-card";
import { generateResidual } from "../lib/domain/residuals/generate-residual";
import { periodOf } from "../lib/domain/statements/figures";
import example from "../lib/schemas/examples/merchant-application.json" with { type: "json" };
import { type PlatformFeeRule } from "../lib/schemas/platform-fees";
import { benchDataDir, insertPaidCharges } from "./harness";
import { scaled } from "./short";

// The ISV's revenue (issue 51): a month's residual over MERCHANTS merchants × CHARGES charges each
// (charges with costs and platform fees, in the ledger as the payments write them), timed (goal < 60 s
// on PGlite); and the latency of making and paying a payment (a terminal's request, the card
// presented: in process, the API's own functions) with 20 platform fee rules, the last one matching,
// against none (goal: no more than 5 % slower).

export type RevenueBench = {
  kind: string;
  merchants: number;
  charges: number;
  residualSeconds: number;
  lines: number;
  payP50NoRulesMs: number;
  payP50RulesMs: number;
  rulesOverhead: number;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchRevenue(
  kind: "pglite" | "postgres",
  databaseUrl: string | undefined,
): Promise<RevenueBench> {
  const merchantCount = Number(process.env.BENCH_RESIDUAL_MERCHANTS ?? scaled(1000, 20));
  const perMerchant = Number(process.env.BENCH_RESIDUAL_CHARGES ?? scaled(100, 10));
  const payments = Number(process.env.BENCH_RULE_PAYMENTS ?? scaled(200, 20));
  const dataDir = await benchDataDir("onb-bench-rev-", databaseUrl);
  const handle = await openDatabase({ databaseUrl, dataDir, poolSize: 10 });
  try {
    const db = handle.db;
    const isv = await createIsv(db, {
      name: "Revenue bench",
      email: `rev-${Date.now()}@example.test`,
      password: "bench-password-1",
      live: false,
    });
    const account = await getAccount(db, isv.account_id);
    // Last month's (a residual is made for a month that is over).
    const now = new Date();
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 10, 12));
    const ids: string[] = [];
    for (let i = 0; i < merchantCount; i++) {
      const { row } = await createMerchant(db, account, { phone: "+14155550123", merchant: example } as never);
      ids.push(row.id);
      await insertPaidCharges(db, {
        isvAccountId: isv.account_id,
        merchantId: row.id,
        count: perMerchant,
        at,
        costs: 219,
        platformFee: 50,
      });
    }
    const started = process.hrtime.bigint();
    const { row: residual } = await generateResidual(db, isv.account_id, periodOf(at));
    const residualSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const expected = merchantCount * perMerchant;
    if (
      residual.count !== expected ||
      residual.lineCount !== merchantCount ||
      residual.platformFees !== expected * 50 ||
      residual.costs !== expected * 219
    )
      throw new Error(`the residual does not add up: ${JSON.stringify(residual)} (expected ${expected} charges)`);

    // Making and paying a payment, without rules and with 20 (the last matching).
    const [first] = ids as [string];
    const terminalId = "tml_bench_rules";
    await db
      .update(merchants)
      .set({
        status: "APPROVED",
        payment: { tokenizer_publishable_key: "pk_test_bench", tokenizer_active: true, terminal_id: terminalId },
        paymentKeys: {
          pub_api_key: "pk_test_bench",
          api_key_last4: "0000",
          gateway_merchant_id: "gw_bench",
          processors: [],
        },
      })
      .where(eq(merchants.id, first));
    const scope = { isvAccountId: isv.account_id };
    const payOnce = async () => {
      const begun = process.hrtime.bigint();
      await createScopedPaymentRequest(db, scope, {
        type: "TERMINAL",
        merchant_id: first,
        terminal_id: terminalId,
        amount: 2_500,
      });
      await presentCard(db, scope, terminalId, { card_entry_method: "CHIP" });
      return Number(process.hrtime.bigint() - begun) / 1e6;
    };
    const rules: PlatformFeeRule[] = [
      ...Array.from({ length: 19 }, (_, i) => ({
        match: { max_amount: 100 + i },
        fee: { amount: 10 + i },
      })),
      { match: { card_present: true }, fee: { percent: 1, min: 5 } },
    ];
    const timings = { none: [] as number[], rules: [] as number[] };
    // Alternated, after a warm-up, so both see the same database as it grows.
    for (let i = 0; i < 5; i++) await payOnce();
    for (let i = 0; i < payments; i++) {
      await updateAccount(db, isv.account_id, { settings: { platform_fee_rules: [] } }, { kind: "operator" });
      timings.none.push(await payOnce());
      await updateAccount(db, isv.account_id, { settings: { platform_fee_rules: rules } }, { kind: "operator" });
      timings.rules.push(await payOnce());
    }
    const payP50NoRulesMs = median(timings.none);
    const payP50RulesMs = median(timings.rules);
    return {
      kind,
      merchants: merchantCount,
      charges: expected,
      residualSeconds,
      lines: residual.lineCount,
      payP50NoRulesMs,
      payP50RulesMs,
      rulesOverhead: payP50RulesMs / payP50NoRulesMs - 1,
    };
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printRevenue(results: RevenueBench[]) {
  console.log(
    "\nThe ISV's revenue: a month's residual (merchants × charges, goal < 60 s on PGlite), and making + paying a terminal payment with 20 platform fee rules against none (medians, goal <= +5 %)",
  );
  console.log(
    `${"database".padEnd(12)} ${"merchants".padStart(9)} ${"charges".padStart(8)} ${"residual s".padStart(11)} ${"pay ms".padStart(7)} ${"+rules ms".padStart(9)} ${"overhead".padStart(9)}`,
  );
  for (const r of results)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.merchants).padStart(9)} ${String(r.charges).padStart(8)} ${r.residualSeconds.toFixed(2).padStart(11)} ${r.payP50NoRulesMs.toFixed(1).padStart(7)} ${r.payP50RulesMs.toFixed(1).padStart(9)} ${`${(r.rulesOverhead * 100).toFixed(1)} %`.padStart(9)}`,
    );
}
