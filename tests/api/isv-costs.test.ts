import fs from "node:fs";
import path from "node:path";

import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";

import { runCommand } from "@/cli/commands";
import { rowsOf } from "@/lib/db/client";
import { accounts, auditLogs, events, merchants, outbox } from "@/lib/db/schema";
import { rotateApiKey } from "@/lib/domain/accounts/rotate-api-key";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";
import { defaultCostProfile } from "@/lib/schemas/cost-profile";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, payRequest } from "../helpers/payments";
import { pdfText } from "../helpers/pdf";
import { until } from "../helpers/until";

// The ISV's costs and margin (docs/reference.md section 19, issue 51's first step): the cost profile
// the operator sets, and on every charge what it cost the platform and what the ISV made, for the
// ISV's eyes only.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;
let own: string;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Costs ISV");
  merchant = await approvedMerchant(api, isv);
  const [row] = await api.db.select().from(merchants).where(eq(merchants.id, merchant.id));
  const rotated = await rotateApiKey(api.db, row!.merchantAccountId!, false);
  own = `Basic ${Buffer.from(`${rotated.account_sid}:${rotated.secret_key}`).toString("base64")}`;
}, 120_000);
afterAll(() => api.close());

const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });
const cli = (args: string[]) => runCommand(api.handle, [...args, "--json"]);

test("a keyed Visa credit payment: interchange 1.80 % + 10¢, network 14 bps, processor 10 bps + 5¢; the margin is the fee less them", async () => {
  expect((await get("/v1/account")).json.cost_profile).toEqual(defaultCostProfile);
  const paid = await payRequest(api, isv, merchant, 10_000);
  expect(paid.status).toBe(200);
  // The customer's answer says nothing of it.
  expect(JSON.stringify(paid.json)).not.toMatch(/cost|margin/);
  const charge = (await get(`/v1/charges/${paid.json.charge.id}`)).json;
  expect(charge.cost_details).toEqual([
    {
      type: "interchange",
      rate_bps: 180,
      fixed: 10,
      amount: 190,
      description: "Interchange, Visa, Mastercard, Discover credit, card not present",
    },
    { type: "network", rate_bps: 14, fixed: 0, amount: 14, description: "Card network assessment" },
    { type: "processor", rate_bps: 10, fixed: 5, amount: 15, description: "Processor fee" },
  ]);
  expect(charge.costs).toBe(219);
  expect(charge.fee).toBeGreaterThan(0);
  expect(charge.margin).toBe(charge.fee - 219);
  // In the ISV's list and in its webhooks too.
  const listed = (await get(`/v1/charges?merchant_id=${merchant.id}`)).json.data.find(
    (c: { id: string }) => c.id === charge.id,
  );
  expect(listed).toMatchObject({ costs: 219, margin: charge.margin });
  const [paidEvent] = await api.db
    .select()
    .from(events)
    .where(and(eq(events.objectId, charge.id), eq(events.type, "charge.paid")));
  expect(paidEvent!.data).toMatchObject({ costs: 219, margin: charge.margin });

  // The merchant's own key reads the charge without them, alone or in a list.
  const mine = (await get(`/v1/charges/${charge.id}`, own)).json;
  expect(mine.id).toBe(charge.id);
  for (const field of ["costs", "cost_details", "margin"]) expect(mine).not.toHaveProperty(field);
  const myList = (await get("/v1/charges", own)).json.data as Record<string, unknown>[];
  expect(myList.length).toBeGreaterThan(0);
  expect(JSON.stringify(myList)).not.toMatch(/"costs"|"cost_details"|"margin"/);
});

test("an ACH debit costs its per-item fee", async () => {
  const paid = await payRequest(api, isv, merchant, 5_000, { account: "000123456789" });
  expect(paid.status).toBe(200);
  const charge = (await get(`/v1/charges/${paid.json.charge.id}`)).json;
  expect(charge).toMatchObject({
    costs: 25,
    cost_details: [{ type: "ach", rate_bps: 0, fixed: 25, amount: 25, description: "ACH debit" }],
    margin: charge.fee - 25,
  });
});

test("the operator sets a cost profile: the figures given change, audited; a bad figure changes nothing", async () => {
  const set = await cli([
    "isv",
    "cost-profile",
    "set",
    isv.account_id,
    "--network-bps",
    "0",
    "--processor-per-item",
    "0",
    "--revenue-share-percent",
    "70",
  ]);
  expect(set.code, set.stderr).toBe(0);
  const expected = {
    ...defaultCostProfile,
    card: { ...defaultCostProfile.card, network_bps: 0, processor_per_item: 0 },
    revenue_share_percent: 70,
  };
  expect(JSON.parse(set.stdout)).toEqual(expected);
  expect((await get("/v1/account")).json.cost_profile).toEqual(expected);
  const [audit] = await api.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.accountId, isv.account_id), eq(auditLogs.action, "account.cost_profile_updated")));
  expect(audit).toMatchObject({
    actorType: "cli",
    resourceId: isv.account_id,
    fields: [
      "cost_profile.card.network_bps",
      "cost_profile.card.processor_per_item",
      "cost_profile.revenue_share_percent",
    ],
  });

  // The charges made from then on cost what it says: 190 + 0 + 10 = 200.
  const paid = await payRequest(api, isv, merchant, 10_000);
  expect((await get(`/v1/charges/${paid.json.charge.id}`)).json.costs).toBe(200);

  // Refused: over 100 %, not a number, no figure, an unknown account. The profile stays as it was.
  const over = await cli(["isv", "cost-profile", "set", isv.account_id, "--revenue-share-percent", "101"]);
  expect(over.code).toBe(1);
  expect(over.stdout + over.stderr).toContain("revenue_share_percent");
  expect((await cli(["isv", "cost-profile", "set", isv.account_id, "--network-bps", "1.5"])).code).toBe(2);
  expect((await cli(["isv", "cost-profile", "set", isv.account_id])).code).toBe(2);
  expect((await cli(["isv", "cost-profile", "set", "acct_nope", "--network-bps", "1"])).code).toBe(1);
  const [row] = await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id));
  expect(row!.costProfile).toEqual(expected);
  const shown = await cli(["isv", "cost-profile", "show", isv.account_id]);
  expect(JSON.parse(shown.stdout)).toEqual(expected);
});

test("a dispute and an ACH return carry what they cost, for the ISV only", async () => {
  const disputedCard = await payRequest(api, isv, merchant, 8_000, { card: SANDBOX_DISPUTED_CARD });
  const returnedDebit = await payRequest(api, isv, merchant, 3_000, { account: "000222222227" });
  expect([disputedCard.status, returnedDebit.status]).toEqual([200, 200]);
  await api.call("POST", "/v1/test_helpers/settlement/run", { auth: isv.auth, body: { merchant_id: merchant.id } });
  const disputeId = await until(
    async () => (await get(`/v1/charges/${disputedCard.json.charge.id}`)).json.dispute_id as string | null,
    (id) => id !== null,
    20_000,
    "the dispute",
  );
  const dispute = (await get(`/v1/disputes/${disputeId}`)).json;
  expect(dispute).toMatchObject({ costs: 1_500, margin: dispute.fee - 1_500 });
  const returned = await until(
    async () => (await get(`/v1/charges/${returnedDebit.json.charge.id}`)).json,
    (c) => c.status === "RETURNED",
    20_000,
    "the return",
  );
  expect(returned.return_costs).toBe(200);
  // The ledger's cost postings of the debit: what the debit cost when it was made, and what its
  // return cost (the profile's return cost, not the debit's again), each once.
  expect(returned.costs).not.toBe(200);
  const costPostings = rowsOf<{ description: string; amount: number }>(
    await api.db.execute(sql`select p.description, e.amount from ledger_postings p
      join ledger_entries e on e.posting_id = p.id and e.account = 'processing_costs'
      where p.type = 'cost' and p.source_id = ${returned.id} order by p.seq`),
  ).map((r) => [r.description, Number(r.amount)]);
  expect(costPostings).toEqual([
    [`Costs of ${returned.id}`, returned.costs],
    [`Return costs of ${returned.id}`, 200],
  ]);
  // The webhooks say it; the merchant's own key does not.
  const [opened] = await api.db
    .select()
    .from(events)
    .where(and(eq(events.objectId, disputeId!), eq(events.type, "dispute.created")));
  expect(opened!.data).toMatchObject({ costs: 1_500 });
  const mine = (await get(`/v1/disputes/${disputeId}`, own)).json;
  expect(mine.id).toBe(disputeId);
  expect(mine).not.toHaveProperty("costs");
  expect(mine).not.toHaveProperty("margin");
  expect((await get(`/v1/charges/${returned.id}`, own)).json).not.toHaveProperty("return_costs");
  expect(JSON.stringify((await get("/v1/disputes", own)).json.data)).not.toMatch(/"costs"|"margin"/);
}, 60_000);

test("the merchant's statement (JSON, CSV, PDF) and every e-mail about its payments say nothing of costs or margin", async () => {
  const period = new Date().toISOString().slice(0, 7);
  const statement = (
    await api.call("POST", "/v1/test_helpers/statements/generate", {
      auth: isv.auth,
      body: { merchant_id: merchant.id, period },
    })
  ).json;
  expect(statement.charge_count).toBeGreaterThan(0);
  const costWords = /margin|"costs"|cost_details|return_costs|Card network assessment|Processor fee|card not present/i;
  const detail = await get(`/v1/statements/${merchant.id}/${statement.id}`, own);
  expect(detail.status).toBe(200);
  expect(JSON.stringify(detail.json)).not.toMatch(costWords);
  const download = async (format: string) =>
    fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}${format}`, {
      headers: { authorization: own },
    });
  const csv = await download("?format=csv");
  expect(csv.status).toBe(200);
  expect(await csv.text()).not.toMatch(costWords);
  const pdf = await download("");
  expect(pdf.status).toBe(200);
  expect((await pdfText(new Uint8Array(await pdf.arrayBuffer()))).join("\n")).not.toMatch(costWords);
  const mail = await api.db.select().from(outbox).where(eq(outbox.merchantId, merchant.id));
  expect(mail.length).toBeGreaterThan(0);
  for (const m of mail) expect(`${m.subject}\n${m.text}\n${m.html}`).not.toMatch(costWords);
});

test("every cost is a ledger posting (processing_revenue → processing_costs), never a merchant's balance transaction; migration 0040 writes those of charges costed before, once", async () => {
  const paid = await payRequest(api, isv, merchant, 7_700);
  const chargeId = paid.json.charge.id as string;
  const charge = (await get(`/v1/charges/${chargeId}`)).json;
  const costEntries = async () =>
    rowsOf<{ account: string; amount: string | number; merchant_id: string }>(
      await api.db.execute(sql`select e.account, e.amount, p.merchant_id from ledger_postings p
        join ledger_entries e on e.posting_id = p.id where p.type = 'cost' and p.source_id = ${chargeId}
        order by e.account`),
    ).map((r) => [r.account, Number(r.amount)]);
  expect(await costEntries()).toEqual([
    ["processing_costs", charge.costs],
    ["processing_revenue", -charge.costs],
  ]);
  // Not the merchant's: its balance transactions have the charge only.
  const lines = (await get(`/v1/balance_transactions?merchant_id=${merchant.id}&source=${chargeId}`)).json.data;
  expect(lines.map((l: { type: string }) => l.type)).toEqual(["charge"]);
  expect(await checkLedger(api.db, merchant.id)).toEqual([]);

  // A charge costed before costs were posted: its posting removed (the ledger refuses it but for
  // this transaction), then the migration's SQL, twice.
  await api.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(
      sql`delete from ledger_entries where posting_id in (select id from ledger_postings where type = 'cost' and source_id = ${chargeId})`,
    );
    await tx.execute(sql`delete from ledger_postings where type = 'cost' and source_id = ${chargeId}`);
  });
  expect(await costEntries()).toEqual([]);
  const migration = fs.readFileSync(path.join(process.cwd(), "lib/db/migrations/0040_cost_postings.sql"), "utf8");
  for (let run = 0; run < 2; run++)
    for (const statement of migration.split("--> statement-breakpoint")) await api.db.execute(sql.raw(statement));
  expect(await costEntries()).toEqual([
    ["processing_costs", charge.costs],
    ["processing_revenue", -charge.costs],
  ]);
  expect(await checkLedger(api.db)).toEqual([]);
});
