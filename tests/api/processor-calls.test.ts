import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";

import { charges, events, idempotencyKeys, jobs, ledgerPostings, processorCalls, refunds } from "@/lib/db/schema";
import { recoverProcessorCall } from "@/lib/domain/payments/recover-processor-call";
import { checkLedger } from "@/lib/ledger/check";
import { standInProcessors } from "@/lib/processors";
import type { Authorization, CallLookup, PaymentProcessor, RefundResult } from "@/lib/processors/processor";
import { sandboxProcessor } from "@/lib/processors/sandbox";

import { startTestApi, type TestApi } from "../helpers/api";
import { approvedMerchant, tokenize } from "../helpers/payments";

// Every call to the processor in three steps (docs/reference.md section 10, "Calls to the
// processor"): the intent committed, the call outside any transaction under the intent's id as
// idempotency key, the outcome recorded after; a job settles what a timeout or a crash left open.
// A stand-in processor here fails before doing anything, loses its answer after doing it, or hangs,
// and counts what it did: nothing may be done twice, nothing lost, and the ledger checks clean.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchant: Awaited<ReturnType<typeof approvedMerchant>>;

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Processor calls ISV");
  merchant = await approvedMerchant(api, isv);
}, 120_000);
afterAll(() => api.close());

type Mode = "answers" | "fails_before" | "loses_answer" | "hangs";

/** A card processor that does each keyed call at most once, and fails in the way it is told. */
function faultyProcessor() {
  const done = new Map<string, Authorization | RefundResult>();
  const state = {
    mode: "answers" as Mode,
    declines: false,
    /** A gateway's latency before it acts. */
    delayMs: 0,
    /** How many times money moved, by key (the test's "never twice"). */
    moved: new Map<string, number>(),
    cancelled: [] as string[],
  };
  async function act<T extends Authorization | RefundResult>(key: string, make: () => T): Promise<T> {
    if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.mode === "fails_before") throw new Error("connect ECONNREFUSED");
    let result = done.get(key) as T | undefined;
    if (!result) {
      result = make();
      done.set(key, result);
      state.moved.set(key, (state.moved.get(key) ?? 0) + 1);
    }
    if (state.mode === "loses_answer") throw new Error("socket hang up");
    if (state.mode === "hangs") await new Promise(() => {});
    return result;
  }
  const processor: PaymentProcessor = {
    ...sandboxProcessor,
    authorize: ({ idempotencyKey }) =>
      act<Authorization>(idempotencyKey, () => ({ approved: true, reference: `t_auth_${idempotencyKey}` })),
    refund: ({ idempotencyKey }) =>
      act<RefundResult>(idempotencyKey, () =>
        state.declines
          ? { ok: false, reason: "processor_declined" }
          : { ok: true, reference: `t_re_${idempotencyKey}` },
      ),
    async lookup(key): Promise<CallLookup> {
      const result = done.get(key);
      if (!result) return { found: false };
      if ("approved" in result)
        return result.approved ? { found: true, ...result } : { found: true, approved: false, reason: result.reason };
      return result.ok
        ? { found: true, approved: true, reference: result.reference }
        : { found: true, approved: false, reason: result.reason };
    },
    async cancel(key) {
      state.cancelled.push(key);
    },
  };
  return { processor, state };
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());
function standIn() {
  const faulty = faultyProcessor();
  restore = standInProcessors({ card: faulty.processor, timeoutMs: 1_000 });
  return faulty.state;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  api.call("POST", path, { auth: isv.auth, body, headers });

async function paidCharge(amount: number) {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(paid.status).toBe(200);
  return paid.json.charge.id as string;
}
const chargeRow = async (id: string) => (await api.db.select().from(charges).where(eq(charges.id, id)))[0];
const refundRow = async (id: string) => (await api.db.select().from(refunds).where(eq(refunds.id, id)))[0];
const callOf = async (subjectId: string) =>
  (await api.db.select().from(processorCalls).where(eq(processorCalls.subjectId, subjectId))).at(-1);
const refundPostings = async (id: string) =>
  api.db
    .select()
    .from(ledgerPostings)
    .where(and(eq(ledgerPostings.sourceId, id), eq(ledgerPostings.type, "refund")));
const eventTypes = async (objectId: string) =>
  (await api.db.select().from(events).where(eq(events.objectId, objectId))).map((e) => e.type).sort();
const recover = async (subjectId: string) => {
  const call = await callOf(subjectId);
  if (!call) throw new Error(`no call for ${subjectId}`);
  await recoverProcessorCall(api.db, { call_id: call.id });
  return call.id;
};

test("a processor that hangs: the refund is answered pending at once, reserved and not settled; the job records it once", async () => {
  const chargeId = await paidCharge(5_000);
  const state = standIn();
  state.mode = "hangs";
  const res = await post("/v1/refunds", { charge_id: chargeId, amount: 1_200 }, { "Idempotency-Key": "hang-1" });
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ status: "pending", amount: 1_200, failure_reason: null });
  const id = res.json.id as string;
  // Reserved on the charge (no other refund can take it), not yet moved in the ledger, not settled.
  expect((await chargeRow(chargeId))?.amountRefunded).toBe(1_200);
  expect(await refundPostings(id)).toHaveLength(0);
  expect(await eventTypes(id)).toEqual([]);
  expect((await post("/v1/refunds", { charge_id: chargeId, amount: 3_900 })).json.error.code).toBe(
    "refund_exceeds_charge",
  );
  expect((await post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })).status).toBe(200);
  // Nothing in the ledger yet, so nothing for the settlement to take.
  expect(await refundPostings(id)).toHaveLength(0);
  // The processor did it (its answer never came back): the job asks by the key and records it.
  const callId = await recover(id);
  expect(state.moved.get(callId)).toBe(1);
  expect(await refundRow(id)).toMatchObject({ status: "succeeded", processorReference: `t_re_${callId}` });
  expect(await refundPostings(id)).toHaveLength(1);
  expect(await eventTypes(id)).toEqual(["refund.created"]);
  // Run again (a job retried): nothing more.
  await recoverProcessorCall(api.db, { call_id: callId });
  expect(await refundPostings(id)).toHaveLength(1);
  expect(state.moved.get(callId)).toBe(1);
  expect((await api.call("GET", `/v1/refunds/${id}`, { auth: isv.auth })).json.status).toBe("succeeded");
  expect(await checkLedger(api.db)).toEqual([]);
});

test("a crash between the processor's refund and its record: the SDK's retry with the same Idempotency-Key resumes that refund, never refunding twice", async () => {
  const chargeId = await paidCharge(4_000);
  const state = standIn();
  state.mode = "loses_answer";
  const first = await post("/v1/refunds", { charge_id: chargeId, amount: 1_000 }, { "Idempotency-Key": "crash-1" });
  expect(first.json.status).toBe("pending");
  // As if the instance had died before answering: the key's claim unanswered, past its timeout.
  await api.db
    .update(idempotencyKeys)
    .set({ responseStatus: null, responseBody: null, createdAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(idempotencyKeys.key, "crash-1"));
  state.mode = "answers";
  const retry = await post("/v1/refunds", { charge_id: chargeId, amount: 1_000 }, { "Idempotency-Key": "crash-1" });
  expect(retry.status).toBe(200);
  expect(retry.json).toMatchObject({ id: first.json.id, status: "succeeded" });
  const callId = (await callOf(first.json.id))?.id ?? "";
  expect(state.moved.get(callId)).toBe(1);
  expect([...state.moved.values()].reduce((a, b) => a + b, 0)).toBe(1);
  expect(await api.db.select().from(refunds).where(eq(refunds.chargeId, chargeId))).toHaveLength(1);
  expect((await chargeRow(chargeId))?.amountRefunded).toBe(1_000);
  expect(await refundPostings(first.json.id)).toHaveLength(1);
  // The job, due later, finds it recorded.
  await recoverProcessorCall(api.db, { call_id: callId });
  expect(await refundPostings(first.json.id)).toHaveLength(1);
  expect(await checkLedger(api.db)).toEqual([]);
});

test("a processor that failed before doing anything: the job finds nothing under the key and refunds once under it", async () => {
  const chargeId = await paidCharge(3_000);
  const state = standIn();
  state.mode = "fails_before";
  const res = await post("/v1/refunds", { charge_id: chargeId, amount: 700 });
  expect(res.json.status).toBe("pending");
  const callId = (await callOf(res.json.id))?.id ?? "";
  expect(state.moved.get(callId)).toBeUndefined();
  // Still down when the job first asks: the job fails (and is tried again later), nothing recorded.
  await expect(recoverProcessorCall(api.db, { call_id: callId })).rejects.toThrow("ECONNREFUSED");
  expect((await refundRow(res.json.id))?.status).toBe("pending");
  state.mode = "answers";
  await recoverProcessorCall(api.db, { call_id: callId });
  expect(state.moved.get(callId)).toBe(1);
  expect(await refundRow(res.json.id)).toMatchObject({ status: "succeeded" });
  expect(await checkLedger(api.db)).toEqual([]);
});

test("a late decline: the pending refund is failed, its amount given back to the charge, refund.failed, nothing posted", async () => {
  const chargeId = await paidCharge(2_500);
  const state = standIn();
  state.mode = "fails_before";
  const res = await post("/v1/refunds", { charge_id: chargeId, amount: 2_500 });
  expect(res.json.status).toBe("pending");
  expect((await chargeRow(chargeId))?.amountRefunded).toBe(2_500);
  state.mode = "answers";
  state.declines = true;
  await recover(res.json.id);
  expect(await refundRow(res.json.id)).toMatchObject({ status: "failed", failureReason: "processor_declined" });
  expect((await chargeRow(chargeId))?.amountRefunded).toBe(0);
  expect(await refundPostings(res.json.id)).toHaveLength(0);
  expect(await eventTypes(res.json.id)).toEqual(["refund.failed"]);
  // The charge lists no failed refund, and the whole amount can be refunded again.
  const charge = (await api.call("GET", `/v1/charges/${chargeId}`, { auth: isv.auth })).json;
  expect(charge).toMatchObject({ amount_refunded: 0, refunds: [] });
  state.declines = false;
  expect((await post("/v1/refunds", { charge_id: chargeId })).json).toMatchObject({
    status: "succeeded",
    amount: 2_500,
  });
  expect(await checkLedger(api.db)).toEqual([]);
});

test("an authorization whose answer never came: the payment fails, the request can be paid again, and the job voids the approval once", async () => {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount: 1_999 })).json;
  const state = standIn();
  state.mode = "hangs";
  const paid = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(paid.status).toBe(200);
  expect(paid.json).toMatchObject({ outcome: "declined", payment_request: { status: "PENDING" } });
  const failed = (await api.call("GET", `/v1/charges/${paid.json.charge.id}`, { auth: isv.auth })).json;
  expect(failed).toMatchObject({ status: "FAILED", failure_reason: "processing_error", amount_captured: 0 });
  const call = await callOf(pr.id);
  expect(call?.status).toBe("started");
  // Its intent was written with the job that settles it, due a minute after the call began.
  const [recovery] = await api.db
    .select()
    .from(jobs)
    .where(eq(jobs.id, `job_processor_call_recover_${call?.id}`));
  expect(recovery).toMatchObject({ type: "processor_call_recover", payload: { call_id: call?.id } });
  expect(recovery!.runAt.getTime() - call!.createdAt.getTime()).toBe(60_000);
  await recoverProcessorCall(api.db, { call_id: call?.id ?? "" });
  expect(state.cancelled).toEqual([call?.id]);
  expect(await callOf(pr.id)).toMatchObject({ status: "cancelled", outcome: { approved: true } });
  expect((await callOf(pr.id))?.voidedAt).toBeInstanceOf(Date);
  await recoverProcessorCall(api.db, { call_id: call?.id ?? "" });
  expect(state.cancelled).toHaveLength(1);
  state.mode = "answers";
  const again = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey) },
  });
  expect(again.json).toMatchObject({ outcome: "paid", charge: { status: "AUTHORIZED" } });
  expect(await checkLedger(api.db)).toEqual([]);
});

// Against a gateway that takes 40 ms, as real ones take longer: the old code (the processor asked
// inside the refund's transaction, the charge's row locked meanwhile) answered 500s on PostgreSQL.
test("12 partial refunds racing 4 settlement runs of the same merchant, three times: no 5xx, each refund once, the ledger clean", async () => {
  const state = standIn();
  state.delayMs = 40;
  for (let round = 0; round < 3; round++) {
    const chargeIds = await Promise.all(Array.from({ length: 6 }, (_, i) => paidCharge(3_000 + i)));
    const results = await Promise.all([
      ...chargeIds.flatMap((id) => [
        post("/v1/refunds", { charge_id: id, amount: 1_000 }),
        post("/v1/refunds", { charge_id: id, amount: 1_000 }),
      ]),
      ...Array.from({ length: 4 }, () => post("/v1/test_helpers/settlement/run", { merchant_id: merchant.id })),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 16 }, () => 200));
    // Each refund's answer (a `pending` one says the processor's answer was not recorded in the request).
    expect(results.slice(0, 12).map((r) => r.json.status)).toEqual(Array.from({ length: 12 }, () => "succeeded"));
    const rows = await api.db.select().from(refunds).where(inArray(refunds.chargeId, chargeIds));
    expect(rows).toHaveLength(12);
    for (const id of chargeIds) expect((await chargeRow(id))?.amountRefunded).toBe(2_000);
    const postings = await api.db
      .select()
      .from(ledgerPostings)
      .where(
        and(
          inArray(
            ledgerPostings.sourceId,
            rows.map((r) => r.id),
          ),
          eq(ledgerPostings.type, "refund"),
        ),
      );
    expect(postings).toHaveLength(12);
  }
  expect(await checkLedger(api.db)).toEqual([]);
}, 120_000);
