import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { rowsOf } from "@/lib/db/client";
import { charges, disputes, payouts, refunds, residualLines } from "@/lib/db/schema";
import { acceptDispute } from "@/lib/domain/disputes/accept-dispute";
import { checkAchReturns } from "@/lib/domain/settlements/ach-returns";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";
import { cardModels } from "@/lib/schemas/vocabulary";

import { startTestApi, type TestApi } from "../helpers/api";
import { isvPostingsAt, lastMonth } from "../helpers/ledger";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { until } from "../helpers/until";

// A seeded month (docs/reference.md section 19, issue 51's "done when"): CHARGES charges across the
// six pricing models, cards and bank debits, with platform fees from the ISV's rules and from the
// payments themselves, refunds, bank returns and disputes. Then: every charge's fee less its costs is
// its margin; the residual's lines add up to it to the cent; and the money is conserved, each side
// read from the objects where they exist: what customers paid = what the merchants were paid out or
// hold + what went back to customers and banks + the ISV's revenue + the platform's.

// 300 in CI (every kind of charge, refund, return and dispute is among them: the variety is by
// index), 1,000 in `npm run test:deep`, as issue 51 measured it: the 1,000 took 234 s of CI's PGlite pass.
const CHARGES = Number(process.env.REVENUE_MONTH_CHARGES ?? 300);

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
const shops: Awaited<ReturnType<typeof approvedMerchant>>[] = [];

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Seeded Month ISV");
  const patch = await api.call("PATCH", "/v1/account", {
    auth: isv.auth,
    body: {
      settings: {
        platform_fee_rules: [
          { match: { payment_type: "INVOICE" }, fee: { amount: 25 } },
          { match: { min_amount: 20_000 }, fee: { percent: 1.25, max: 900 } },
        ],
      },
    },
  });
  expect(patch.status).toBe(200);
  // One merchant per card pricing model, each taking bank payments too: the six models.
  for (const model of cardModels)
    shops.push(
      await approvedMerchant(api, isv, (application) => {
        application.capabilities = { types: [model, "ach"] };
      }),
    );
}, 180_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });
const sum = async (query: Promise<{ total: string | number | null }[]>) => Number((await query)[0]?.total ?? 0);

describe(`a seeded month of ${CHARGES} charges`, () => {
  test("fee − costs = margin for every charge; the residual adds up; money is conserved", async () => {
    const cards = ["4242424242424242", "4000056655665556", "378282246310005", "5555555555554444"];
    // Deterministic variety: amount, method, card, platform fee given or from the rules.
    const plan = Array.from({ length: CHARGES }, (_, i) => ({
      shop: shops[i % shops.length]!,
      amount: 500 + ((i * 7_919) % 60_000),
      ach: i % 7 === 3 ? (i % 21 === 3 ? "000222222227" : "000123456789") : null,
      card: i % 97 === 5 ? SANDBOX_DISPUTED_CARD : cards[i % cards.length]!,
      fee: i % 11 === 0 ? { platform_fee: { percent: 2, min: 10 } } : {},
    }));
    for (let i = 0; i < plan.length; i += 10)
      await Promise.all(
        plan.slice(i, i + 10).map(async (p) => {
          const res = await payRequest(
            api,
            isv,
            p.shop,
            p.amount,
            p.ach ? { account: p.ach } : { card: p.card },
            p.fee,
          );
          expect(res.status, res.text).toBe(200);
        }),
      );
    const made = await api.db.select().from(charges).where(eq(charges.isvAccountId, isv.account_id));
    expect(made.filter((c) => c.status !== "FAILED")).toHaveLength(CHARGES);
    expect(new Set(made.map((c) => c.paymentMethod))).toEqual(new Set(["card", "ach"]));

    // Refunds: a half of every 13th, the whole of every 29th card charge (not the disputed cards').
    const cardCharges = made
      .filter((c) => c.paymentMethod === "card" && c.cardLast4 !== SANDBOX_DISPUTED_CARD.slice(-4))
      .sort((a, b) => a.seq - b.seq);
    for (const [i, c] of cardCharges.entries()) {
      if (i % 29 === 0) expect((await post("/v1/refunds", { charge_id: c.id })).status).toBe(200);
      else if (i % 13 === 0)
        expect((await post("/v1/refunds", { charge_id: c.id, amount: Math.floor(c.amountCaptured / 2) })).status).toBe(
          200,
        );
    }
    // Settled; the banks return the debits of 000222222227; the disputed cards are disputed.
    const settled = await settleAll(api.db, new Date(Date.now() + 1), { isvAccountId: isv.account_id });
    for (const s of settled) await checkAchReturns(api.db, { settlement_id: s.id });
    const disputedCount = plan.filter((p) => !p.ach && p.card === SANDBOX_DISPUTED_CARD).length;
    const opened = await until(
      () => api.db.select().from(disputes).where(eq(disputes.isvAccountId, isv.account_id)),
      (rows) => rows.length === disputedCount,
      60_000,
      "every disputed card's dispute",
    );
    for (const d of opened.slice(0, Math.ceil(opened.length / 2)))
      await acceptDispute(api.db, { isvAccountId: isv.account_id }, d.id);

    // Every charge: fee − costs = margin.
    const final = await api.db
      .select()
      .from(charges)
      .where(and(eq(charges.isvAccountId, isv.account_id), ne(charges.status, "FAILED")));
    for (const c of final) expect(c.margin, c.id).toBe((c.fee ?? 0) - (c.costs ?? 0));
    expect(final.some((c) => c.status === "RETURNED")).toBe(true);

    // The residual: its lines add up to it, figure by figure.
    // Made once the month is over: its activity moved into the last month, whose residual it is.
    const month = lastMonth();
    await isvPostingsAt(api.db, isv.account_id, month.at);
    const residual = (await post("/v1/test_helpers/residuals/generate", { period: month.period })).json;
    const lines = await api.db.select().from(residualLines).where(eq(residualLines.residualId, residual.id));
    expect(lines).toHaveLength(shops.length);
    const total = (key: keyof (typeof lines)[number]) => lines.reduce((s, l) => s + Number(l[key]), 0);
    expect(residual).toMatchObject({
      count: total("count"),
      volume: total("volume"),
      merchant_fees: total("merchantFees"),
      costs: total("costs"),
      margin: total("margin"),
      share: total("share"),
      platform_fees: total("platformFees"),
      amount: total("amount") + residual.carried_in,
    });
    expect(residual.count).toBe(CHARGES);

    // Money is conserved. From the objects:
    const customersPaid = final.reduce((s, c) => s + c.amountCaptured, 0);
    const refunded = await sum(
      api.db
        .select({ total: sql<string>`sum(${refunds.amount})` })
        .from(refunds)
        .where(eq(refunds.isvAccountId, isv.account_id)),
    );
    const returned = final
      .filter((c) => c.status === "RETURNED")
      .reduce((s, c) => s + c.amountCaptured - c.amountRefunded, 0);
    const disputeRows = await api.db.select().from(disputes).where(eq(disputes.isvAccountId, isv.account_id));
    const disputedAway = disputeRows.filter((d) => d.status !== "won").reduce((s, d) => s + d.amount, 0);
    const platformFeesNet = final.reduce((s, c) => s + (c.platformFee ?? 0) - c.platformFeeRefunded, 0);
    const processingFees = final.reduce((s, c) => s + (c.fee ?? 0), 0) + disputeRows.reduce((s, d) => s + d.fee, 0);
    const costs =
      final.reduce((s, c) => s + (c.costs ?? 0) + (c.returnCosts ?? 0), 0) +
      disputeRows.reduce((s, d) => s + (d.costs ?? 0), 0);
    const isvRevenue = platformFeesNet + residual.share;
    // What the platform keeps: its fees, less the ISV's share and what the payments cost it.
    const platformRevenue = processingFees - residual.share - costs;
    // What the merchants were paid out (every payout not refused) or hold (their ledger balances).
    const merchantIds = shops.map((s) => s.id);
    const paidOut = await sum(
      api.db
        .select({ total: sql<string>`sum(${payouts.amount})` })
        .from(payouts)
        .where(and(inArray(payouts.merchantId, merchantIds), ne(payouts.status, "failed"))),
    );
    const [held] = rowsOf<{ total: string | number | null }>(
      await api.db.execute(sql`select sum(amount) as total from ledger_entries
        where account in ('pending', 'available', 'reserved') and owner_id in (${sql.join(
          merchantIds.map((id) => sql`${id}`),
          sql`, `,
        )})`),
    );
    const merchantsHave = paidOut + Number(held?.total ?? 0);
    expect(customersPaid).toBe(
      merchantsHave + refunded + returned + disputedAway + isvRevenue + platformRevenue + costs,
    );
    expect(residual.costs).toBe(costs);

    // And the ledger agrees with the objects on both revenues.
    const [ledgerIsv] = rowsOf<{ total: string | number | null }>(
      await api.db.execute(
        sql`select sum(amount) as total from ledger_entries where account = 'revenue' and owner_id = ${isv.account_id}`,
      ),
    );
    const isvPaidOut = await sum(
      api.db
        .select({ total: sql<string>`sum(${payouts.amount})` })
        .from(payouts)
        .where(
          and(eq(payouts.isvAccountId, isv.account_id), eq(payouts.recipient, "account"), ne(payouts.status, "failed")),
        ),
    );
    expect(Number(ledgerIsv?.total ?? 0) + isvPaidOut).toBe(isvRevenue);
    const [ledgerPlatform] = rowsOf<{ total: string | number | null }>(
      await api.db.execute(sql`select sum(e.amount) as total from ledger_entries e
        join ledger_postings p on p.id = e.posting_id
        where e.account = 'processing_revenue' and e.owner_id is null and p.isv_account_id = ${isv.account_id}`),
    );
    expect(Number(ledgerPlatform?.total ?? 0)).toBe(platformRevenue);
    // Every cost is a posting: the platform's processing_costs hold exactly the objects' costs.
    const [ledgerCosts] = rowsOf<{ total: string | number | null }>(
      await api.db.execute(sql`select sum(e.amount) as total from ledger_entries e
        join ledger_postings p on p.id = e.posting_id
        where e.account = 'processing_costs' and p.type = 'cost' and p.isv_account_id = ${isv.account_id}`),
    );
    expect(Number(ledgerCosts?.total ?? 0)).toBe(costs);
    expect(await checkLedger(api.db)).toEqual([]);
  }, 900_000);
});
