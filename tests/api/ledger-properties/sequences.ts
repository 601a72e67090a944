import { randomInt } from "node:crypto";

import { and, desc, eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, disputes, payouts, reserves, settlements } from "@/lib/db/schema";
import { decideDispute } from "@/lib/domain/disputes/close-dispute";
import { openDispute } from "@/lib/domain/disputes/open-dispute";
import { changeBankAccount } from "@/lib/domain/home/settings";
import { advancePayout } from "@/lib/domain/payouts/advance-payout";
import { releaseDueReserves } from "@/lib/domain/reserves/reserves";
import { checkAchReturnReversals, checkAchReturns } from "@/lib/domain/settlements/ach-returns";
import { settleAll } from "@/lib/domain/settlements/run-settlement";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_RTP_REFUSED_ACCOUNT } from "@/lib/payouts/instant-rail";

import { startTestApi, type TestApi } from "../../helpers/api";
import { freshHomeSession } from "../../helpers/fixtures";
import { approvedMerchant, payRequest } from "../../helpers/payments";

// The ledger's invariants (docs/reference.md section 18) as properties: random sequences of money
// events (card and ACH payments, partial and full refunds, settlements, the banks' returns and
// reversals, disputes opened, won, lost and accepted, payouts sent, paid and refused, new bank
// accounts, payout schedules changed, manual payouts of a share of the balance, some more than it
// holds, reserves rolling and fixed put on, released by hand and by their date, instant payouts paid
// or refused by the rail at sending) on two merchants, one of which the bank refuses every payout to until its account is
// changed. After every step: every invariant of checkLedger holds for both merchants (every payout's
// lines add up to it, each balance is its entries...); after every sequence, the balance read from
// the API is the sum of the merchant's balance transactions; every 50 sequences (a new pair of
// merchants) and at the end, every invariant of the whole ledger (the platform's clearing accounts too).
// LEDGER_PROPERTY_RUNS sets the number of sequences in all (300 by default on PGlite, 200 on
// PostgreSQL; `npm run test:deep` runs 1,000 on PGlite). Each part draws a new seed every run and
// prints it first (and in its failure): LEDGER_PROPERTY_SEED replays that part's sequences exactly.
// They are run in PARTS files (part-N.test.ts), each with its own ISV and a share of the sequences,
// so that the workers carry them side by side: one file alone was the long pole of the whole suite
// (932 s of a 945 s PGlite pass, the other workers idle for its last minutes).

const PARTS = 3;
const total = Number(process.env.LEDGER_PROPERTY_RUNS ?? (process.env.DATABASE_URL ? 200 : 300));
if (!Number.isSafeInteger(total) || total < PARTS)
  throw new Error(`LEDGER_PROPERTY_RUNS must be an integer of at least ${PARTS}`);

/** The seed of this run: LEDGER_PROPERTY_SEED's to replay one, a new one otherwise (fast-check's seeds are 32-bit). */
export function propertySeed(given = process.env.LEDGER_PROPERTY_SEED): number {
  if (given === undefined || given === "") return randomInt(0, 2 ** 31);
  const seed = Number(given);
  if (!Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31)
    throw new Error(`LEDGER_PROPERTY_SEED must be a 32-bit integer, not ${JSON.stringify(given)}`);
  return seed;
}
/** This part's share of the sequences: the first parts take one more when they do not divide evenly. */
export const runsOfPart = (part: number, all = total) => Math.floor(all / PARTS) + (part <= all % PARTS ? 1 : 0);

/** Part `part` (1 to PARTS) of the property: describe it in a test file of its own. */
export function ledgerProperties(part: number) {
  const runs = runsOfPart(part);
  const seed = propertySeed();
  const replay = `LEDGER_PROPERTY_SEED=${seed} LEDGER_PROPERTY_RUNS=${total} npx vitest run tests/api/ledger-properties/part-${part}.test.ts`;
  // The first line of the file's output: a red run is replayed from it.
  console.log(`Ledger property part ${part} of ${PARTS}: ${runs} sequences, seed ${seed} (replay: ${replay})`);
  beforeAll(async () => {
    // The worker runs (underwriting needs it): its jobs (payouts sent, the banks' answers, disputes
    // reported) race the steps as they would in production, so the invariants must hold at any moment.
    api = await startTestApi({ worker: true });
    isv = await api.newIsv(`Ledger properties ISV (part ${part})`);
    await api.call("PATCH", "/v1/account", {
      auth: isv.auth,
      body: {
        settings: {
          new_bank_account_hold_days: 0,
          instant_payouts_enabled: true,
          instant_payout_markup_bps: 25,
          // Half the parts send a refused instant payout as a standard one.
          instant_payout_fallback: part % 2 ? "standard" : "return",
        },
      },
    });
    await newMerchants();
  }, 180_000);
  afterAll(() => api.close());

  describe(`the ledger under random sequences of money events (part ${part} of ${PARTS})`, () => {
    test(`every invariant holds after every step (${runs} sequences)`, async () => {
      const property = fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          for (const [i, s] of steps.entries()) {
            await run(s);
            await assertMerchantInvariants(`after step ${i + 1} of ${JSON.stringify(steps)}`);
          }
          await assertBalances(`after ${JSON.stringify(steps)}`);
          if (++sequences % ROTATE_EVERY === 0) {
            await assertInvariants(`after sequence ${sequences}`);
            await newMerchants();
          }
        }),
        { numRuns: runs, endOnFailure: true, seed },
      );
      await property.catch((error: unknown) => {
        // Not `instanceof Error`: fast-check's error may come from another realm (vitest.config.ts, vmForks).
        const message = (error as { message?: string } | undefined)?.message ?? String(error);
        throw new Error(`Ledger property part ${part} failed with seed ${seed}; replay: ${replay}\n${message}`, {
          cause: error,
        });
      });
      await assertInvariants("at the end");
    }, 1_800_000);
  });
}

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let shop: Awaited<ReturnType<typeof approvedMerchant>>;
let closedBank: Awaited<ReturnType<typeof approvedMerchant>>;

/**
 * The two merchants the steps use: one paid out normally, one whose bank refuses every payout until
 * its account is changed. A new pair every ROTATE_EVERY sequences, so each step's checks read a
 * bounded history however many sequences run (the whole ledger is checked at each change of pair).
 */
async function newMerchants() {
  shop = await approvedMerchant(api, isv);
  closedBank = await approvedMerchant(api, isv, (application) => {
    application.bank_account.account_number = "000555555550";
    application.bank_account.account_number_confirm = "000555555550";
  });
}
const ROTATE_EVERY = 50;
let sequences = 0;
const post = (path: string, body?: unknown) => api.call("POST", path, { auth: isv.auth, body });

const achAccounts = {
  clears: "000123456789",
  returned: "000222222227",
  returnReversed: "000333333335",
  insufficient: "000111111116",
} as const;

type Step =
  | { kind: "card"; second: boolean; amount: number; disputed: boolean }
  | { kind: "ach"; second: boolean; amount: number; outcome: keyof typeof achAccounts }
  | { kind: "refund"; second: boolean; pick: number; part: number }
  | { kind: "settle"; second: boolean }
  | { kind: "bank_answers"; pick: number }
  | { kind: "dispute"; second: boolean; pick: number }
  | { kind: "dispute_outcome"; pick: number; outcome: "win" | "lose" | "accept" }
  | { kind: "payout"; pick: number }
  | { kind: "new_bank_account"; second: boolean; digits: number }
  | { kind: "schedule"; second: boolean; interval: (typeof intervals)[number]; anchor: number; minimum: number }
  | { kind: "manual_payout"; second: boolean; part: number }
  | { kind: "reserve"; second: boolean; rolling: boolean; percent: number; amount: number }
  | { kind: "reserve_release"; pick: number }
  | { kind: "reserve_due"; second: boolean; days: number }
  | { kind: "instant_payout"; second: boolean; part: number };

const intervals = ["daily", "weekly", "monthly", "manual"] as const;
const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday"] as const;

const second = fc.boolean();
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("card" as const),
      second,
      amount: fc.integer({ min: 50, max: 90_000 }),
      disputed: fc.boolean(),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("ach" as const),
      second,
      amount: fc.integer({ min: 100, max: 90_000 }),
      outcome: fc.constantFrom(...(Object.keys(achAccounts) as (keyof typeof achAccounts)[])),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      second,
      pick: fc.nat(),
      part: fc.integer({ min: 1, max: 100 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant("settle" as const), second }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("bank_answers" as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("dispute" as const), second, pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("dispute_outcome" as const),
      pick: fc.nat(),
      outcome: fc.constantFrom("win" as const, "lose" as const, "accept" as const),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("payout" as const), pick: fc.nat() }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant("new_bank_account" as const),
      second,
      digits: fc.integer({ min: 0, max: 9_999_999 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("schedule" as const),
      second,
      interval: fc.constantFrom(...intervals),
      anchor: fc.integer({ min: 1, max: 31 }),
      minimum: fc.constantFrom(0, 0, 1_000, 50_000),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("manual_payout" as const),
      second,
      // A share of the available balance, in percent: over 100 asks for more than there is.
      part: fc.integer({ min: 1, max: 130 }),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("reserve" as const),
      second,
      rolling: fc.boolean(),
      percent: fc.integer({ min: 1, max: 5_000 }).map((bps) => bps / 100),
      amount: fc.integer({ min: 1, max: 60_000 }),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant("reserve_release" as const), pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant("reserve_due" as const), second, days: fc.integer({ min: 0, max: 12 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("instant_payout" as const),
      second,
      // A share of what may be paid out instantly, in percent: over 100 asks for more.
      part: fc.integer({ min: 1, max: 120 }),
    }),
    weight: 1,
  },
);

/** This part's two merchants: the parts (and other files on PostgreSQL) share one database. */
const ours = () => [shop.id, closedBank.id];
const merchantOf = (s: { second?: boolean }) => (s.second ? closedBank : shop);
const pickOf = <T>(rows: T[], pick: number) => (rows.length ? rows[pick % rows.length] : undefined);

async function pay(merchant: typeof shop, amount: number, source: { card?: string; account?: string }) {
  const res = await payRequest(api, isv, merchant, amount, source);
  // Declined (402), or refused as card testing after several declines of one account (429): nothing moves.
  expect([200, 402, 429]).toContain(res.status);
}

async function run(s: Step) {
  switch (s.kind) {
    case "card":
      return pay(merchantOf(s), s.amount, { card: s.disputed ? "4000000000000259" : "4242424242424242" });
    case "ach":
      return pay(merchantOf(s), s.amount, { account: achAccounts[s.outcome] });
    case "refund": {
      const rows = await api.db
        .select()
        .from(charges)
        .where(and(eq(charges.merchantId, merchantOf(s).id), inArray(charges.status, ["AUTHORIZED", "SETTLED"])))
        .orderBy(charges.seq);
      const charge = pickOf(rows, s.pick);
      if (!charge) return;
      const left = charge.amountCaptured - charge.amountRefunded;
      const amount = s.part === 100 ? undefined : Math.max(1, Math.floor((left * s.part) / 100));
      const res = await post("/v1/refunds", { charge_id: charge.id, ...(amount ? { amount } : {}) });
      // Refused (not refundable now: disputed, an ACH debit not cleared, nothing left): nothing moved.
      expect([200, 400, 402, 409]).toContain(res.status);
      return;
    }
    case "settle":
      await settleAll(api.db, new Date(Date.now() + 1), { merchantId: merchantOf(s).id });
      return;
    case "bank_answers": {
      const rows = await api.db
        .select({ id: settlements.id })
        .from(settlements)
        .where(inArray(settlements.merchantId, ours()))
        .orderBy(desc(settlements.seq))
        .limit(5);
      const settlement = pickOf(rows, s.pick);
      if (!settlement) return;
      await checkAchReturns(api.db, { settlement_id: settlement.id });
      await checkAchReturnReversals(api.db, { settlement_id: settlement.id });
      return;
    }
    case "dispute": {
      const rows = await api.db
        .select()
        .from(charges)
        .where(
          and(
            eq(charges.merchantId, merchantOf(s).id),
            eq(charges.status, "SETTLED"),
            eq(charges.paymentMethod, "card"),
          ),
        )
        .orderBy(charges.seq);
      const charge = pickOf(rows, s.pick);
      if (charge) await openDispute(api.db, charge.id, "fraudulent");
      return;
    }
    case "dispute_outcome": {
      const rows = await api.db
        .select()
        .from(disputes)
        .where(and(eq(disputes.status, "needs_response"), inArray(disputes.merchantId, ours())))
        .orderBy(disputes.seq);
      const dispute = pickOf(rows, s.pick);
      if (!dispute) return;
      if (s.outcome === "accept") {
        expect((await post(`/v1/disputes/${dispute.id}/accept`)).status).toBe(200);
        return;
      }
      await post(`/v1/disputes/${dispute.id}`, {
        evidence: { uncategorized_text: s.outcome === "win" ? "winning_evidence" : "losing_evidence" },
      });
      expect((await post(`/v1/disputes/${dispute.id}/submit`)).status).toBe(200);
      await decideDispute(api.db, { dispute_id: dispute.id });
      return;
    }
    case "payout": {
      const rows = await api.db
        .select()
        .from(payouts)
        .where(and(inArray(payouts.status, ["pending", "in_transit"]), inArray(payouts.merchantId, ours())))
        .orderBy(payouts.seq);
      const payout = pickOf(rows, s.pick);
      if (payout) await advancePayout(api.db, payout.id);
      return;
    }
    case "new_bank_account": {
      const merchant = merchantOf(s);
      // One in five: the account the instant rail refuses at sending (its standard payouts are paid).
      const digits = s.digits % 5 === 0 ? SANDBOX_RTP_REFUSED_ACCOUNT : `0009${String(s.digits).padStart(7, "0")}`;
      await changeBankAccount(
        api.db,
        merchant.id,
        {
          bank_name: "Second Bank",
          routing_number: "021000021",
          account_holder_name: "Ana Ruiz",
          account_number: digits,
          account_number_confirm: digits,
        },
        freshHomeSession(),
      ).catch(() => undefined); // a change refused (frozen payouts, a number refused) moves no money
      return;
    }
    case "schedule": {
      const res = await api.call("PATCH", `/v1/merchants/${merchantOf(s).id}`, {
        auth: isv.auth,
        body: {
          payout_schedule: {
            interval: s.interval,
            ...(s.interval === "weekly" ? { weekly_anchor: weekdays[s.anchor % 5] } : {}),
            ...(s.interval === "monthly" ? { monthly_anchor: s.anchor } : {}),
            minimum_amount: s.minimum,
          },
        },
      });
      expect(res.status, res.text).toBe(200);
      return;
    }
    case "manual_payout": {
      const merchant = merchantOf(s);
      const { available } = (await api.call("GET", `/v1/balance?merchant_id=${merchant.id}`, { auth: isv.auth })).json;
      const amount = Math.max(1, Math.floor((available * s.part) / 100));
      // Manual payouts of this amount: the worker, beside this step on PostgreSQL, makes other payouts
      // meanwhile (a failed one paid again once a new bank account is verified, an automatic one).
      const asked = () =>
        api.db
          .select({ id: payouts.id })
          .from(payouts)
          .where(
            and(
              eq(payouts.merchantId, merchant.id),
              eq(payouts.automatic, false),
              eq(payouts.method, "standard"),
              eq(payouts.amount, amount),
            ),
          );
      const before = await asked();
      const res = await post("/v1/payouts", { merchant_id: merchant.id, amount });
      // More than it may draw (400), or its payouts held (409): nothing is made.
      expect([200, 400, 409], res.text).toContain(res.status);
      if (res.status !== 200) expect((await asked()).length).toBe(before.length);
      return;
    }
    case "reserve": {
      const merchant = merchantOf(s);
      const res = await post(
        `/v1/merchants/${merchant.id}/reserves`,
        s.rolling
          ? { type: "rolling", percent: s.percent, hold_days: 1 + (s.amount % 10), reason: "Property test" }
          : { type: "fixed", amount: s.amount, reason: "Property test" },
      );
      expect(res.status, res.text).toBe(200);
      return;
    }
    case "reserve_release": {
      const rows = await api.db
        .select()
        .from(reserves)
        .where(and(eq(reserves.status, "active"), inArray(reserves.merchantId, ours())))
        .orderBy(reserves.createdAt);
      const reserve = pickOf(rows, s.pick);
      if (!reserve) return;
      const res = await post(`/v1/merchants/${reserve.merchantId}/reserves/${reserve.id}/release`);
      expect(res.status, res.text).toBe(200);
      return;
    }
    case "instant_payout": {
      const merchant = merchantOf(s);
      const quote = (await api.call("GET", `/v1/payouts/instant_quote?merchant_id=${merchant.id}`, { auth: isv.auth }))
        .json;
      // Instant ones only: the worker may make a standard payout meanwhile (a new bank account verified
      // pays a failed payout again), on PostgreSQL where it runs beside this step.
      const instantOnes = () =>
        api.db
          .select({ id: payouts.id })
          .from(payouts)
          .where(and(eq(payouts.merchantId, merchant.id), eq(payouts.method, "instant")));
      const before = await instantOnes();
      const amount = Math.max(1, Math.floor((quote.available * s.part) / 100));
      const res = await post("/v1/payouts", { merchant_id: merchant.id, method: "instant", amount });
      // More than may be paid out instantly, or none can be now (held, nothing available): nothing made.
      expect([200, 400, 403], res.text).toContain(res.status);
      if (res.status !== 200) {
        expect((await instantOnes()).length).toBe(before.length);
      }
      return;
    }
    case "reserve_due":
      // The daily release as it would run `days` days from now: the rolling holds of that age come back.
      await releaseDueReserves(api.db, new Date(Date.now() + s.days * 86_400_000), { merchantId: merchantOf(s).id });
      return;
  }
}

async function transactionsSum(merchantId: string) {
  let sum = 0;
  let after: string | undefined;
  for (;;) {
    const page = (
      await api.call(
        "GET",
        `/v1/balance_transactions?merchant_id=${merchantId}&limit=100${after ? `&starting_after=${after}` : ""}`,
        { auth: isv.auth },
      )
    ).json;
    for (const t of page.data as { net: number }[]) sum += t.net;
    if (!page.has_more) return sum;
    after = page.data.at(-1).id;
  }
}

/** After every step: both merchants' invariants (their own index ranges, so a long run stays fast). */
async function assertMerchantInvariants(context: string) {
  expect(await checkLedger(api.db, ours()), context).toEqual([]);
}

/** Every invariant of the whole ledger (the platform's clearing accounts too), and the balances. */
async function assertInvariants(context: string) {
  const violations = await checkLedger(api.db);
  if (violations.length && process.env.LEDGER_DEBUG) {
    const { ledgerPostings } = await import("@/lib/db/schema");
    for (const v of violations) {
      console.log(v, await api.db.select().from(settlements).where(eq(settlements.id, v.id)));
      console.log(await api.db.select().from(ledgerPostings).where(eq(ledgerPostings.settlementId, v.id)));
    }
  }
  expect(violations, context).toEqual([]);
  await assertBalances(context);
}

/** After every sequence: each merchant's balance read from the API is the sum of its balance transactions. */
async function assertBalances(context: string) {
  for (const merchant of [shop, closedBank]) {
    // The worker may move money between two reads: the balance is read again until it held still
    // across the listing of the transactions.
    for (let attempt = 0; ; attempt++) {
      const before = (await api.call("GET", `/v1/balance?merchant_id=${merchant.id}`, { auth: isv.auth })).json;
      const sum = await transactionsSum(merchant.id);
      const after = (await api.call("GET", `/v1/balance?merchant_id=${merchant.id}`, { auth: isv.auth })).json;
      if (JSON.stringify(before) !== JSON.stringify(after) && attempt < 5) continue;
      // A reserve's hold is a transaction out of `available` (its net negative): `reserved` is apart.
      expect(after.available + after.pending, context).toBe(sum);
      expect(after.reserved, context).toBeGreaterThanOrEqual(0);
      break;
    }
  }
}
