import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { allow } from "@/lib/api/middleware/auth";
import { idempotencyKeys } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { createId } from "@/lib/ids";

import { startTestApi, type TestApi } from "../helpers/api";
import { openLink } from "../helpers/onboarding";

// The idempotency layer is one middleware for every POST; this file drives it through a probe
// route mounted on the real app (real auth, real database), counting how often the work runs.
let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let runs = 0;

beforeAll(async () => {
  api = await startTestApi({
    configure: (app) =>
      app
        .post("/v1/_probe", allow({ kinds: ["api_key", "user"] }), async (c) => {
          const body = (await c.req.json()) as { delay?: number; fail?: number };
          runs++;
          if (body.delay) await new Promise((r) => setTimeout(r, body.delay));
          if (body.fail) return c.json({ error: "boom" }, body.fail as 500);
          return c.json({ object: "probe", id: createId("evt"), run: runs }, 200);
        })
        // A second route: a key is the request's, its route included.
        .post("/v1/_probe_two", allow({ kinds: ["api_key", "user"] }), async (c) => {
          runs++;
          return c.json({ object: "probe_two", id: createId("evt"), run: runs }, 200);
        }),
  });
  isv = await api.newIsv();
  other = await api.newIsv();
});
afterAll(() => api.close());

describe("Idempotency-Key", () => {
  test("the same key and body replays the first answer without running again", async () => {
    const key = `k-${Date.now()}`;
    const first = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { a: 1, b: 2 },
      headers: { "idempotency-key": key },
    });
    const before = runs;
    const second = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { b: 2, a: 1 },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(before);
  });

  test("the same key with another body answers 409 idempotency_key_reused", async () => {
    const key = `k2-${Date.now()}`;
    await api.call("POST", "/v1/_probe", { auth: isv.auth, body: { a: 1 }, headers: { "idempotency-key": key } });
    const res = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { a: 2 },
      headers: { "idempotency-key": key },
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
  });

  test("a claim its instance never answered (it died mid-request) is taken over by a retry after the claim timeout, not before", async () => {
    const key = `k-dead-${Date.now()}`;
    const body = { delay: 0 };
    // What a killed instance leaves: the key claimed for this very request, no answer stored.
    const { createHash } = await import("node:crypto");
    const digest = createHash("sha256")
      .update(`POST /v1/_probe\n${JSON.stringify(body)}`)
      .digest("hex");
    const claim = { accountId: isv.account_id, key, method: "POST", path: "/v1/_probe", requestDigest: digest };
    await api.db
      .insert(idempotencyKeys)
      .values({ ...claim, createdAt: new Date(Date.now() - env.IDEMPOTENCY_CLAIM_TIMEOUT_MS + 5000) });
    const before = runs;
    const early = await api.call("POST", "/v1/_probe", { auth: isv.auth, body, headers: { "idempotency-key": key } });
    expect(early.status).toBe(409);
    expect(runs).toBe(before);
    await api.db
      .update(idempotencyKeys)
      .set({ createdAt: new Date(Date.now() - env.IDEMPOTENCY_CLAIM_TIMEOUT_MS - 1000) })
      .where(eq(idempotencyKeys.key, key));
    const retried = await api.call("POST", "/v1/_probe", { auth: isv.auth, body, headers: { "idempotency-key": key } });
    expect(retried.status).toBe(200);
    expect(runs).toBe(before + 1);
    const replay = await api.call("POST", "/v1/_probe", { auth: isv.auth, body, headers: { "idempotency-key": key } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual(retried.json);
    expect(runs).toBe(before + 1);
  });

  test("a key still in flight answers 409 idempotency_key_in_use, and concurrent requests run once", async () => {
    const key = `k3-${Date.now()}`;
    const before = runs;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.call("POST", "/v1/_probe", { auth: isv.auth, body: { delay: 1000 }, headers: { "idempotency-key": key } }),
      ),
    );
    expect(runs - before).toBe(1);
    // One ran; the others were refused while it ran, or (arriving after it, on a loaded machine) replayed its answer.
    const original = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") === null);
    expect(original).toHaveLength(1);
    const inFlight = answers.filter((a) => a.status === 409);
    expect(inFlight.length).toBeGreaterThan(0);
    for (const a of inFlight) expect(a.json.error.code).toBe("idempotency_key_in_use");
    for (const a of answers.filter((x) => x.status === 200 && x !== original[0])) {
      expect(a.headers.get("idempotent-replayed")).toBe("true");
      expect(a.json).toEqual(original[0]!.json);
    }
    expect(inFlight.length + answers.filter((x) => x.status === 200).length).toBe(8);
    const replay = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { delay: 1000 },
      headers: { "idempotency-key": key },
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  test("keys are per account", async () => {
    const key = `k4-${Date.now()}`;
    const mine = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: {},
      headers: { "idempotency-key": key },
    });
    const theirs = await api.call("POST", "/v1/_probe", {
      auth: other.auth,
      body: {},
      headers: { "idempotency-key": key },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
  });

  test("another account's answer under the same key is never replayed, nor its request refused as reused", async () => {
    const key = `k4b-${Date.now()}`;
    const mine = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { a: 1 },
      headers: { "idempotency-key": key },
    });
    const before = runs;
    // Another body from another account: its own request, run (not 409).
    const theirs = await api.call("POST", "/v1/_probe", {
      auth: other.auth,
      body: { a: 2 },
      headers: { "idempotency-key": key },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
    expect(runs).toBe(before + 1);
    // And each account's replay is its own answer.
    const again = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { a: 1 },
      headers: { "idempotency-key": key },
    });
    expect([again.headers.get("idempotent-replayed"), again.json.id]).toEqual(["true", mine.json.id]);
    const theirsAgain = await api.call("POST", "/v1/_probe", {
      auth: other.auth,
      body: { a: 2 },
      headers: { "idempotency-key": key },
    });
    expect([theirsAgain.status, theirsAgain.headers.get("idempotent-replayed"), theirsAgain.json.id]).toEqual([
      200,
      "true",
      theirs.json.id,
    ]);
    expect(runs).toBe(before + 1);
  });

  test("one key sent to two routes with the same body is refused: the second route never runs", async () => {
    const key = `k4c-${Date.now()}`;
    const first = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: { a: 1 },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(200);
    const before = runs;
    const second = await api.call("POST", "/v1/_probe_two", {
      auth: isv.auth,
      body: { a: 1 },
      headers: { "idempotency-key": key },
    });
    expect(second.status).toBe(409);
    expect(second.json.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
    expect(runs).toBe(before);
  });

  test.each([500, 502, 503])(
    "a %i answer releases the key: the retry runs again (not a replay, not 409)",
    async (code) => {
      const key = `k5-${code}-${Date.now()}`;
      const before = runs;
      const failed = await api.call("POST", "/v1/_probe", {
        auth: isv.auth,
        body: { fail: code },
        headers: { "idempotency-key": key },
      });
      expect(failed.status).toBe(code);
      expect(runs).toBe(before + 1);
      expect(await api.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
      const again = await api.call("POST", "/v1/_probe", {
        auth: isv.auth,
        body: { fail: code },
        headers: { "idempotency-key": key },
      });
      expect(again.status).toBe(code);
      expect(again.headers.get("idempotent-replayed")).toBeNull();
      expect(runs).toBe(before + 2);
    },
  );

  test("POST /v1/merchants with a key: created once, replayed with the same id; a 4xx is replayed too; another body is 409", async () => {
    const key = `km-${Date.now()}`;
    const count = async () => (await api.call("GET", "/v1/merchants?limit=100", { auth: isv.auth })).json.data.length;
    const before = await count();
    const first = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123" },
      headers: { "idempotency-key": key },
    });
    const second = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123" },
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.json.id).toBe(first.json.id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await count()).toBe(before + 1);

    const reused = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550124" },
      headers: { "idempotency-key": key },
    });
    expect(reused.status).toBe(409);
    expect(reused.json.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
    expect(await count()).toBe(before + 1);

    const badKey = `kb-${Date.now()}`;
    const bad = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "12" },
      headers: { "idempotency-key": badKey },
    });
    expect(bad.status).toBe(400);
    const badAgain = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "12" },
      headers: { "idempotency-key": badKey },
    });
    expect(badAgain.status).toBe(400);
    expect(badAgain.headers.get("idempotent-replayed")).toBe("true");
    expect({ ...badAgain.json.error, request_id: "x" }).toEqual({ ...bad.json.error, request_id: "x" });
  });

  test("a merchant's onboarding session has its own keys: the same key never replays or blocks its ISV's request", async () => {
    const merchant = (await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550123" } }))
      .json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: merchant.id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    const key = `shared-${createId("evt")}`;
    const signed = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: session,
      body: { name: "Mei Chen" },
      headers: { "idempotency-key": key },
    });
    expect(signed.status).toBe(400); // the application is empty: nothing to sign yet
    const created = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550199" },
      headers: { "idempotency-key": key },
    });
    expect(created.status).toBe(200);
    expect(created.headers.get("idempotent-replayed")).toBeNull();
    expect(created.json.object).toBe("merchant");
    // And the session's own replay still answers its own first answer.
    const again = await api.call("POST", "/v1/onboarding/session/agreement", {
      auth: session,
      body: { name: "Mei Chen" },
      headers: { "idempotency-key": key },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(signed.json);
  });

  test("a key is kept 24 hours: at 23 h 59 min it still replays; past 24 h the same key runs the request again", async () => {
    const key = `kttl-${Date.now()}`;
    const send = () =>
      api.call("POST", "/v1/_probe", { auth: isv.auth, body: { ttl: true }, headers: { "idempotency-key": key } });
    const first = await send();
    const age = async (ms: number) =>
      api.db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(Date.now() - ms) })
        .where(eq(idempotencyKeys.key, key));
    await age(24 * 3600_000 - 60_000);
    const replayed = await send();
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.json).toEqual(first.json);
    await age(24 * 3600_000 + 1_000);
    const fresh = await send();
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(fresh.json.run).toBe(first.json.run + 1);
    expect(fresh.json.id).not.toBe(first.json.id);
  });

  test("a key longer than 255 characters answers 400", async () => {
    const res = await api.call("POST", "/v1/_probe", {
      auth: isv.auth,
      body: {},
      headers: { "idempotency-key": "x".repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe("Idempotency-Key");
  });
});
