import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, disputes, files, jobs, outbox } from "@/lib/db/schema";
import { attachEvidenceFile } from "@/lib/domain/disputes/save-evidence";
import { settlementWithLines } from "@/lib/domain/settlements/find-settlement";
import { createId } from "@/lib/ids";
import { checkLedger } from "@/lib/ledger/check";
import { SANDBOX_DISPUTED_CARD } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { pdfText } from "../helpers/pdf";
import { until } from "../helpers/until";

// Disputes (docs/reference.md section 16), through the API with the server's own worker: every
// figure worked by hand. Fees: flat rate 2.90 % + $0.30 (Visa credit, half up):
//   100.00 → 3.20 · 50.00 → 1.75 · 20.00 → 0.88 · 200.00 → 6.10 · 30.00 → 1.17

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Disputes ISV");
  other = await api.newIsv("Other ISV");
}, 120_000);
afterAll(() => api.close());

const post = (path: string, body?: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

async function pay(merchant: Merchant, amount: number, card = "4242424242424242") {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card) },
  });
  expect(res.json.charge.status).toBe("AUTHORIZED");
  return res.json.charge.id as string;
}

async function settle(merchant: Merchant) {
  const run = await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id });
  expect(run.status).toBe(200);
  return (run.json.data[0] ?? null) as Record<string, any> | null;
}

/** The dispute the processor reports a moment after the disputed card's charge settled (the card_disputes job). */
async function disputeOf(chargeId: string) {
  return until(
    async () => (await get(`/v1/charges/${chargeId}`)).json.dispute_id as string | null,
    (id) => id !== null,
    20_000,
  ).then(async (id) => (await get(`/v1/disputes/${id}`)).json as Record<string, any>);
}

const pdf = (text: string) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );

async function upload(merchantId: string, purpose: string, text: string, auth = isv.auth) {
  const form = new FormData();
  form.set("purpose", purpose);
  form.set("merchant_id", merchantId);
  form.set("file", new Blob([new Uint8Array(pdf(text))], { type: "application/pdf" }), "receipt.pdf");
  const res = await fetch(`${api.baseUrl}/v1/files`, { method: "POST", body: form, headers: { authorization: auth } });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.id as string;
}

const statusOf = async (id: string) => (await get(`/v1/disputes/${id}`)).json.status as string;

describe("disputes", () => {
  test("a dispute on a partly refunded charge: the next settlement takes what the customer still paid and the fee; won, the one after returns the amount; every net to the cent", async () => {
    const merchant = await approvedMerchant(api, isv);
    const disputed = await pay(merchant, 10_000, SANDBOX_DISPUTED_CARD);
    await pay(merchant, 5_000);
    // A refund before the dispute: it went back to the customer, so the dispute is of the rest.
    expect((await post("/v1/refunds", { charge_id: disputed, amount: 1_000 })).status).toBe(200);

    const first = await settle(merchant);
    expect(first).toMatchObject({
      gross: 15_000,
      refunds: 1_000,
      fees: 320 + 175,
      dispute_count: 0,
      disputes: 0,
      dispute_fees: 0,
      carried_in: 0,
      net: 13_505,
    });

    const dispute = await disputeOf(disputed);
    expect(dispute).toMatchObject({
      object: "dispute",
      charge_id: disputed,
      merchant_id: merchant.id,
      amount: 9_000,
      fee: 1_500,
      currency: "usd",
      reason: "fraudulent",
      status: "needs_response",
      submitted_at: null,
      closed_at: null,
      settlement_id: null,
      won_settlement_id: null,
    });
    expect(dispute.evidence_due_by - dispute.created_at).toBe(7 * 24 * 3600 * 1000);
    const charge = (await get(`/v1/charges/${disputed}`)).json;
    expect(charge).toMatchObject({ status: "SETTLED", disputed: true, dispute_id: dispute.id, amount_refunded: 1_000 });
    // The merchant is told, with the deadline and a link to answer.
    const [mail] = await api.db.select().from(outbox).where(eq(outbox.kind, "dispute_opened"));
    expect(mail?.merchantId).toBe(merchant.id);
    expect(mail?.text).toContain("$90.00");
    expect(mail?.text).toContain(`/home/disputes/${dispute.id}`);

    // No refund of a disputed charge: the dispute decides what goes back; nothing changes.
    const refused = await post("/v1/refunds", { charge_id: disputed, amount: 500 });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toBe(
      `Charge ${disputed} is disputed (${dispute.id}): the dispute decides what goes back to the customer, so it cannot be refunded`,
    );
    expect((await get(`/v1/charges/${disputed}`)).json.amount_refunded).toBe(1_000);

    // Next settlement: 20.00 paid, the dispute's 90.00 and its 15.00 fee taken: negative, carried.
    await pay(merchant, 2_000);
    const second = await settle(merchant);
    expect(second).toMatchObject({
      gross: 2_000,
      fees: 88,
      dispute_count: 1,
      disputes: 9_000,
      dispute_fees: 1_500,
      dispute_won_count: 0,
      disputes_won: 0,
      carried_in: 0,
      net: 2_000 - 88 - 9_000 - 1_500,
    });
    expect((await get(`/v1/payouts?settlement_id=${second!.id}`)).json.data).toEqual([]);
    expect((await get(`/v1/disputes/${dispute.id}`)).json.settlement_id).toBe(second!.id);

    // Evidence in parts: a name, a receipt file, then the text; each save keeps the others.
    const receipt = await upload(merchant.id, "dispute_evidence", `receipt ${dispute.id}`);
    expect((await post(`/v1/disputes/${dispute.id}`, { evidence: { customer_name: "Ana Ruiz" } })).status).toBe(200);
    expect((await post(`/v1/disputes/${dispute.id}`, { evidence: { receipt } })).status).toBe(200);
    const saved = await post(`/v1/disputes/${dispute.id}`, { evidence: { uncategorized_text: "winning_evidence" } });
    expect(saved.json.evidence).toEqual({
      customer_name: "Ana Ruiz",
      product_description: null,
      shipping_tracking_number: null,
      uncategorized_text: "winning_evidence",
      receipt,
      customer_communication: null,
      uncategorized_file: null,
    });
    expect(saved.json.status).toBe("needs_response");

    // Two submits at once: one moves it, the other is told it is under review already.
    const both = await Promise.all([
      post(`/v1/disputes/${dispute.id}/submit`),
      post(`/v1/disputes/${dispute.id}/submit`),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.json.error.code).toBe("invalid_state");
    // Once submitted, the evidence is what was sent: no more changes.
    const late = await post(`/v1/disputes/${dispute.id}`, { evidence: { customer_name: "Someone else" } });
    expect(late.status).toBe(409);
    await until(
      () => statusOf(dispute.id),
      (s) => s === "won",
      20_000,
    );
    const won = (await get(`/v1/disputes/${dispute.id}`)).json;
    expect(won.evidence.customer_name).toBe("Ana Ruiz");
    expect(won.closed_at).toBeGreaterThanOrEqual(won.submitted_at);

    // The one after: 200.00 paid less 6.10, the 90.00 won back (not the fee), the -85.88 carried in.
    await pay(merchant, 20_000);
    const third = await settle(merchant);
    expect(third).toMatchObject({
      gross: 20_000,
      fees: 610,
      dispute_count: 0,
      disputes: 0,
      dispute_fees: 0,
      dispute_won_count: 1,
      disputes_won: 9_000,
      carried_in: -8_588,
      net: 20_000 - 610 + 9_000 - 8_588,
    });
    const [payout] = (await get(`/v1/payouts?settlement_id=${third!.id}`)).json.data;
    expect(payout.amount).toBe(19_802);
    expect((await get(`/v1/disputes/${dispute.id}`)).json.won_settlement_id).toBe(third!.id);
    // The home's lines of each settlement add up to its net, to the cent (a dispute's fee in its fee column).
    for (const [settlement, kinds] of [
      [second!, ["charge", "dispute"]],
      [third!, ["dispute_won", "charge"]],
    ] as const) {
      const detail = await settlementWithLines(api.db, { isvAccountId: isv.account_id }, settlement.id);
      expect(detail.lines.map((l) => l.kind).sort()).toEqual([...kinds].sort());
      const sum = detail.lines.reduce((total, l) => total + l.amount - l.fee, 0) + detail.totals.carriedIn;
      expect(sum).toBe(settlement.net);
      expect(detail.totals.net).toBe(settlement.net);
    }
    // Nothing is taken or returned twice.
    await pay(merchant, 3_000);
    expect(await settle(merchant)).toMatchObject({ gross: 3_000, fees: 117, disputes: 0, disputes_won: 0, net: 2_883 });

    // The month's statement lists the dispute (taken and won back in the month) and its fee as a fee line.
    const period = new Date().toISOString().slice(0, 7);
    const statement = (await post("/v1/test_helpers/statements/generate", { merchant_id: merchant.id, period })).json;
    const detail = (await get(`/v1/statements/${merchant.id}/${statement.id}`)).json;
    expect(detail.disputes).toEqual([
      {
        id: dispute.id,
        charge_id: disputed,
        created_at: new Date(dispute.created_at).toISOString(),
        reason: "fraudulent",
        status: "won",
        amount: 9_000,
        fee: 1_500,
        closed_at: new Date(won.closed_at).toISOString(),
        opened_in_period: true,
        won_in_period: true,
      },
    ]);
    expect(detail.fee_lines.filter((l: any) => l.kind === "dispute")).toEqual([
      { kind: "dispute", model: "dispute", description: "Dispute fee", count: 1, amount: 1_500 },
    ]);
    expect(detail.gross_volume).toBe(40_000);
    expect(detail.refunds).toBe(1_000);
    // Taken and won back in the same month: the amounts cancel; the fee stays among the fees.
    expect(detail.net).toBe(detail.gross_volume - detail.refunds - detail.fees - 9_000 + 9_000);
    expect(detail.fees).toBe(detail.fee_lines.reduce((sum: number, l: any) => sum + l.amount, 0) as number);
    const pdf = await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}`, {
      headers: { authorization: isv.auth },
    });
    // The CSV: the dispute taken and won back as rows, its fee as a month's fee; the net column adds up.
    const csv = await (
      await fetch(`${api.baseUrl}/v1/statements/${merchant.id}/download/${statement.id}?format=csv`, {
        headers: { authorization: isv.auth },
      })
    ).text();
    const rows = csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(","));
    expect(rows.filter((r) => r[1] === dispute.id).map((r) => [r[0], r[4]])).toEqual([
      ["dispute", "-90.00"],
      ["dispute_won", "90.00"],
    ]);
    // "-90.00" → -9000, by integer arithmetic.
    const cents = (text: string) => {
      const [whole, part] = text.replace(/^-/, "").split(".") as [string, string];
      return (text.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(part));
    };
    expect(rows.reduce((sum, r) => sum + cents(r[6]!), 0)).toBe(detail.net);
    const text = (await pdfText(new Uint8Array(await pdf.arrayBuffer()))).join("\n");
    expect(text).toContain("Disputes");
    expect(text).toContain(dispute.id);
    expect(text).toContain("Dispute fee");
    // The summary lists the dispute taken and won back, so its lines add up to its net.
    expect(text).toMatch(/Disputes \(1\)\s*-\$90\.00/);
    expect(text).toMatch(/Won back \(1\)\s*\$90\.00/);

    // Its events: opened, saved (three), submitted, closed.
    const types = (await get(`/v1/events?limit=100`)).json.data
      .filter((e: any) => e.data.object.id === dispute.id)
      .map((e: any) => e.type)
      .reverse();
    expect(types).toEqual([
      "dispute.created",
      "dispute.updated",
      "dispute.updated",
      "dispute.updated",
      "dispute.updated",
      "dispute.closed",
    ]);
  }, 120_000);

  test("accepted, or unanswered by its deadline: lost, and the amount never comes back; evidence after the deadline refused and nothing saved", async () => {
    // The ISV's own dispute fee: $20.00.
    expect(
      (await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { dispute_fee: 2_000 } } })).status,
    ).toBe(200);
    expect((await get("/v1/account")).json.settings.dispute_fee).toBe(2_000);
    const merchant = await approvedMerchant(api, isv);
    const a = await pay(merchant, 5_000, SANDBOX_DISPUTED_CARD);
    const b = await pay(merchant, 2_000, SANDBOX_DISPUTED_CARD);
    await settle(merchant);
    const accepted = await disputeOf(a);
    const expiring = await disputeOf(b);
    expect([accepted.fee, expiring.fee]).toEqual([2_000, 2_000]);

    // Nothing saved: nothing to submit (400), and the dispute waits still.
    const empty = await post(`/v1/disputes/${accepted.id}/submit`);
    expect(empty.status).toBe(400);
    expect(empty.json.error.code).toBe("parameter_missing");
    const acceptedNow = await post(`/v1/disputes/${accepted.id}/accept`);
    expect(acceptedNow.status).toBe(200);
    expect(acceptedNow.json).toMatchObject({ status: "lost" });
    expect((await post(`/v1/disputes/${accepted.id}/accept`)).status).toBe(409);

    // The deadline passes (moved into the past, as seven days would): evidence refused, nothing saved.
    const past = new Date(Date.now() - 1_000);
    await api.db.update(disputes).set({ evidenceDueBy: past }).where(eq(disputes.id, expiring.id));
    const late = await post(`/v1/disputes/${expiring.id}`, { evidence: { customer_name: "Too late" } });
    expect(late.status).toBe(409);
    expect(late.json.error.message).toBe(
      `The evidence of dispute ${expiring.id} was due by ${past.toISOString()}: it can no longer be answered`,
    );
    expect((await get(`/v1/disputes/${expiring.id}`)).json.evidence.customer_name).toBeNull();
    // The deadline's job (written when the dispute opened) runs at its time: lost.
    const job = `job_dispute_deadline_${expiring.id}`;
    const [queued] = await api.db.select().from(jobs).where(eq(jobs.id, job));
    expect(queued?.runAt.getTime()).toBe(expiring.evidence_due_by);
    await api.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job));
    await until(
      () => statusOf(expiring.id),
      (s) => s === "lost",
      20_000,
    );

    // Both lost: the next settlement takes 30.00 + 20.00 fee and 50.00 + 20.00 fee; nothing returns later.
    const next = await settle(merchant);
    expect(next).toMatchObject({
      gross: 0,
      dispute_count: 2,
      disputes: 7_000,
      dispute_fees: 4_000,
      disputes_won: 0,
      // The first settlement's net (7,000 − 175 − 88 = 6,737) was positive: paid out, nothing carried.
      carried_in: 0,
      net: -11_000,
    });
    const lost = (await get(`/v1/disputes?merchant_id=${merchant.id}&status=lost`)).json.data;
    expect(lost.map((d: any) => d.id).sort()).toEqual([accepted.id, expiring.id].sort());
    await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { settings: { dispute_fee: 1_500 } } });
  }, 120_000);

  test("the home's evidence upload: a document the merchant gave for another purpose is taken; one already given as evidence is used again, not refused", async () => {
    const merchant = await approvedMerchant(api, isv);
    const a = await pay(merchant, 3_000, SANDBOX_DISPUTED_CARD);
    const b = await pay(merchant, 4_000, SANDBOX_DISPUTED_CARD);
    await settle(merchant);
    const [first, second] = [await disputeOf(a), await disputeOf(b)];
    const scope = { isvAccountId: isv.account_id, merchantId: merchant.id };
    const receipt = pdf("the same signed receipt");
    // Given before for another purpose (its verification): evidence is a file of its own.
    const business = await upload(merchant.id, "additional_verification", "the same signed receipt");
    const one = await attachEvidenceFile(api.db, scope, first.id, "receipt", { filename: "r.pdf", bytes: receipt });
    expect(one.file.id).not.toBe(business);
    expect(one.file.purpose).toBe("dispute_evidence");
    // The same receipt for the second dispute: the first's file, attached again (nothing new stored).
    const before = (await api.db.select().from(files).where(eq(files.merchantId, merchant.id))).length;
    const two = await attachEvidenceFile(api.db, scope, second.id, "receipt", { filename: "r2.pdf", bytes: receipt });
    expect(two.file.id).toBe(one.file.id);
    expect(two.dispute.evidence.receipt).toBe(one.file.id);
    expect((await api.db.select().from(files).where(eq(files.merchantId, merchant.id))).length).toBe(before);
  });

  test("isolation: another ISV sees no dispute and can change none; evidence names only the merchant's own dispute files", async () => {
    const merchant = await approvedMerchant(api, isv);
    const sibling = await approvedMerchant(api, isv);
    const chargeId = await pay(merchant, 4_000, SANDBOX_DISPUTED_CARD);
    await settle(merchant);
    const dispute = await disputeOf(chargeId);

    for (const call of [
      () => get(`/v1/disputes/${dispute.id}`, other.auth),
      () => post(`/v1/disputes/${dispute.id}`, { evidence: { customer_name: "x" } }, other.auth),
      () => post(`/v1/disputes/${dispute.id}/submit`, undefined, other.auth),
      () => post(`/v1/disputes/${dispute.id}/accept`, undefined, other.auth),
    ]) {
      const res = await call();
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("resource_missing");
    }
    expect((await get(`/v1/disputes?merchant_id=${merchant.id}`, other.auth)).json.data).toEqual([]);

    // The sibling's file, and a file uploaded for another purpose: refused, and nothing saved.
    const siblings = await upload(sibling.id, "dispute_evidence", `sibling ${dispute.id}`);
    const foreign = await post(`/v1/disputes/${dispute.id}`, { evidence: { receipt: siblings, customer_name: "A" } });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.param).toBe("evidence.receipt");
    // (A business document is taken only while its check asks for one: written here as if it had.)
    const business = createId("file");
    await api.db.insert(files).values({
      id: business,
      isvAccountId: isv.account_id,
      merchantId: merchant.id,
      purpose: "business_document",
      filename: "articles.pdf",
      size: 100,
      type: "pdf",
      sha256: business,
    });
    const wrong = await post(`/v1/disputes/${dispute.id}`, { evidence: { uncategorized_file: business } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.param).toBe("evidence.uncategorized_file");
    const after = (await get(`/v1/disputes/${dispute.id}`)).json;
    expect(after.evidence.receipt).toBeNull();
    expect(after.evidence.customer_name).toBeNull();
    expect(after.status).toBe("needs_response");

    // The merchant's own dispute stays its own: the charge row is marked once, the dispute unique per charge.
    const [row] = await api.db.select().from(charges).where(eq(charges.id, chargeId));
    expect(row?.disputeId).toBe(dispute.id);
  }, 120_000);
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
