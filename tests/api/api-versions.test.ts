import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { accounts, merchants, webhooks } from "@/lib/db/schema";
import { recordEvent } from "@/lib/domain/events/record-event";
import { LATEST_API_VERSION, replaceVersionsForTests, type VersionSet } from "@/lib/versions/versions";

import { startTestApi, type TestApi } from "../helpers/api";
import { startReceiver } from "../helpers/receiver";
import { until } from "../helpers/until";

// API versions by date (docs/reference.md section 22): the header, the account's pin, every answer
// saying its version, 400 for an unknown one; and the mechanism that keeps an older version's shapes,
// on a made-up history where webhooks once took `events` instead of `scopes`.

const OLD = "2026-01-01";
const made: VersionSet = {
  versions: [OLD, LATEST_API_VERSION],
  changes: [
    {
      version: LATEST_API_VERSION,
      object: "webhook",
      description: "events is now scopes",
      toOlder: ({ scopes, ...rest }) => ({ ...rest, events: scopes }),
      requestToLatest: ({ events, ...rest }) => (events === undefined ? rest : { ...rest, scopes: events }),
    },
  ],
};

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
beforeAll(async () => {
  replaceVersionsForTests(made);
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Versioned ISV");
}, 60_000);
afterAll(() => api.close());

const call = (method: string, path: string, version?: string, body?: unknown) =>
  api.call(method, path, { auth: isv.auth, body, headers: version ? { "Onb-Version": version } : {} });

describe("versions by date", () => {
  test("an account is pinned to the latest version when made; every answer says its version", async () => {
    const res = await call("GET", "/v1/account");
    expect(res.json.api_version).toBe(LATEST_API_VERSION);
    expect(res.headers.get("onb-version")).toBe(LATEST_API_VERSION);
    // An error answer too, and a caller without credentials (the latest).
    expect((await call("GET", "/v1/merchants/mer_nope")).headers.get("onb-version")).toBe(LATEST_API_VERSION);
    const anonymous = await api.call("GET", "/v1/payment_requests/pr_nope/public");
    expect(anonymous.headers.get("onb-version")).toBe(LATEST_API_VERSION);
  });

  test("an unknown version is 400 naming the header, and nothing runs", async () => {
    const before = (await api.db.select().from(merchants)).length;
    const res = await call("POST", "/v1/merchants", "2020-02-30", { phone: "+14155550123" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "api_version_unknown", param: "Onb-Version" });
    expect(res.json.error.message).toContain(LATEST_API_VERSION);
    expect((await api.db.select().from(merchants)).length).toBe(before);
  });

  test("PATCH /v1/account api_version pins the account to another known version; an unknown one is refused", async () => {
    expect((await call("PATCH", "/v1/account", undefined, { api_version: "1999-01-01" })).status).toBe(400);
    const pinned = await call("PATCH", "/v1/account", undefined, { api_version: OLD });
    expect(pinned.status, pinned.text).toBe(200);
    const [row] = await api.db.select().from(accounts).where(eq(accounts.id, isv.account_id));
    expect(row!.apiVersion).toBe(OLD);
    expect((await call("GET", "/v1/account")).headers.get("onb-version")).toBe(OLD);
    expect((await call("PATCH", "/v1/account", LATEST_API_VERSION, { api_version: LATEST_API_VERSION })).status).toBe(
      200,
    );
  });
});

describe("an older version's shapes, kept by its change", () => {
  test("a webhook made in the old version takes and answers `events`; the latest sees `scopes`", async () => {
    const made = await call("POST", "/v1/webhooks", OLD, { url: "https://example.test/hook", events: ["charge"] });
    expect(made.status, made.text).toBe(200);
    expect(made.headers.get("onb-version")).toBe(OLD);
    expect(made.json.events).toEqual(["charge"]);
    expect(made.json).not.toHaveProperty("scopes");
    const [row] = await api.db.select().from(webhooks).where(eq(webhooks.id, made.json.id));
    expect(row!.scopes).toEqual(["charge"]);
    // A list's items too.
    const listed = (await call("GET", "/v1/webhooks", OLD)).json.data.find(
      (w: { id: string }) => w.id === made.json.id,
    );
    expect(listed.events).toEqual(["charge"]);
    const latest = (await call("GET", `/v1/webhooks/${made.json.id}`, LATEST_API_VERSION)).json;
    expect(latest.scopes).toEqual(["charge"]);
    expect(latest).not.toHaveProperty("events");
  });

  test("a webhook endpoint's events are written in its own version, and say it", async () => {
    const receiver = await startReceiver();
    try {
      const hook = (
        await call("POST", "/v1/webhooks", LATEST_API_VERSION, {
          url: receiver.url,
          scopes: ["charge"],
          api_version: OLD,
        })
      ).json;
      expect(hook.api_version).toBe(OLD);
      expect(
        (
          await call("POST", "/v1/webhooks", LATEST_API_VERSION, {
            url: receiver.url,
            scopes: ["charge"],
            api_version: "x",
          })
        ).status,
      ).toBe(400);
      await api.db.transaction((tx) =>
        recordEvent(tx, {
          accountId: isv.account_id,
          type: "refund.created",
          objectId: "re_versioned",
          data: { object: "webhook", id: "we_inside", scopes: ["merchant"] },
        }),
      );
      const [delivery] = await until(
        () => receiver.received,
        (r) => r.length >= 1,
        15_000,
        "the delivery",
      );
      expect(delivery!.headers["onb-version"]).toBe(OLD);
      expect(JSON.parse(delivery!.body).data.object).toEqual({
        object: "webhook",
        id: "we_inside",
        events: ["merchant"],
      });
    } finally {
      await receiver.close();
    }
  });
});
