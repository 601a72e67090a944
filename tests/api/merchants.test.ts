import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { events, onboardingLinks } from "@/lib/db/schema";
import { luhnValid } from "@/lib/schemas/merchant";
import { merchantResponseSchema } from "@/lib/schemas/merchant-response";
import { productCategories, productSubcategories } from "@/lib/schemas/product-categories";

import { startTestApi, type TestApi } from "../helpers/api";
import { application, newImei } from "../helpers/fixtures";
import { openLink } from "../helpers/onboarding";
import { memberBearer } from "../helpers/sign-in";

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Acme POS");
  other = await api.newIsv("Other ISV");
});
afterAll(async () => {
  // No full SSN, TIN or account number in any answer this file received.
  const everything = api.seenBodies.join("\n");
  for (const secret of ["401234567", "402345678", "123456789", "000123456789"])
    expect(everything).not.toContain(secret);
  await api.close();
});

const create = (body: unknown, auth = isv.auth) => api.call("POST", "/v1/merchants", { auth, body });

describe("POST /v1/merchants", () => {
  test("creates a merchant from a phone alone, with every required field present", async () => {
    const res = await create({ phone: "(415) 555-0100" });
    expect(res.status).toBe(200);
    expect(merchantResponseSchema.safeParse(res.json).error).toBeUndefined();
    expect(res.json).toMatchObject({
      object: "merchant",
      phone: "+14155550100",
      lead_onboarding_status: "NOT_STARTED",
      automatic_payouts: true,
      deactivated: false,
      payment: { terminal_id: null },
      payment_keys: { pub_api_key: null, api_key: null, gateway_merchant_id: null, processors: [] },
    });
    expect(res.json.id).toMatch(/^mer_/);
    expect(typeof res.json.lead_id).toBe("number");
    expect(res.json.merchant.legal_business_name).toBeNull();
    expect(res.json.merchant.owner_one).toBeNull();
    expect(res.json.merchant).not.toHaveProperty("owner_two");
    expect(res.json.payment.tokenizer_publishable_key).toMatch(/^pk_test_/);
    expect(res.json.defaults.display_name).toBe("Acme POS");
    expect(res.json.default_capabilities.options.cash_discount.advantage_rate).toBe("4.00");
    expect(res.json.merchant.capabilities).toEqual({ types: ["flat_rate", "ach"] });
    expect(res.json.requirements.currently_due).toEqual(
      expect.arrayContaining(["merchant.legal_business_name", "merchant.owner_one", "device"]),
    );
    expect(res.json.requirements.disabled_reason).toBe("onboarding_incomplete");
    expect(res.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test("the create's answer, a fresh read and the merchant.created event's payload are the same merchant, lead_id included", async () => {
    // The merchant and its event are written by one statement, the answer built from the row as it
    // was decided (the lead id from the database's sequence): all three must agree, field by field.
    for (const body of [
      { phone: "+14155550109", merchant: application() },
      { phone: "+14155550108", device: { imei: newImei() }, agent: 7 },
    ]) {
      const created = await create(body);
      expect(created.status).toBe(200);
      const read = await api.call("GET", `/v1/merchants/${created.json.id}`, { auth: isv.auth });
      expect(created.json).toEqual(read.json);
      const [event] = await api.db.select().from(events).where(eq(events.objectId, created.json.id));
      expect(event!.type).toBe("merchant.created");
      expect(event!.data).toEqual(read.json);
      expect(typeof (event!.data as { lead_id: unknown }).lead_id).toBe("number");
    }
  });

  test("lead_id increases", async () => {
    const a = await create({ phone: "+14155550101" });
    const b = await create({ phone: "+14155550101" });
    expect(b.json.lead_id).toBeGreaterThan(a.json.lead_id);
    expect(b.json.id).not.toBe(a.json.id); // phones never deduplicate
  });

  test("a complete prefill is stored, masked in the answer", async () => {
    const res = await create({ phone: "+14155550123", merchant: application() });
    expect(res.status).toBe(200);
    expect(res.json.merchant.tin).toBe("*****6789");
    expect(res.json.merchant.owner_one.ssn).toBe("*****4567");
    expect(res.json.merchant.bank_account.account_number).toBe("*****6789");
    expect(res.json.merchant.bank_account.routing_number).toBe("021000021");
    expect(res.json.merchant.owner_two.first_name).toBe("Luis");
    expect(res.json.requirements.currently_due).toEqual(["device"]);
  });

  test("requires phone and validates it", async () => {
    const missing = await create({});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: "parameter_missing", param: "phone" });
    const bad = await create({ phone: "12" });
    expect(bad.json.error.param).toBe("phone");
  });

  test("lists every invalid prefilled field at once, with full params", async () => {
    const res = await create({
      phone: "+14155550123",
      merchant: {
        business_type: "LLC",
        tin_type: "VAT",
        business_established_date: "2015-02-30",
        owner_one: { ownership_percentage: "101", job_title: "Boss", email: "nope", home_address: { zip: "123" } },
        owner_five: { first_name: "X" },
        bank_account: { routing_number: "12345" },
      },
    });
    expect(res.status).toBe(400);
    const params = res.json.error.errors.map((e: any) => e.param);
    expect(params).toEqual(
      expect.arrayContaining([
        "merchant.business_type",
        "merchant.tin_type",
        "merchant.business_established_date",
        "merchant.owner_one.ownership_percentage",
        "merchant.owner_one.job_title",
        "merchant.owner_one.email",
        "merchant.owner_one.home_address.zip",
        "merchant.owner_five",
        "merchant.bank_account.routing_number",
      ]),
    );
    expect(res.json.error.param).toBe(params[0]);
  });

  const enumCases: [string, string[], (v: string) => unknown][] = [
    [
      "business_type",
      [
        "Sole Proprietor",
        "Limited Liability (LLC)",
        "Partnership",
        "Association/State & Trust",
        "Tax Exempt Org",
        "Corporation",
      ],
      (v) => ({ business_type: v }),
    ],
    ["tin_type", ["EIN", "SSN", "ITIN"], (v) => ({ tin_type: v })],
    [
      "owner_one.job_title",
      [
        "President",
        "Vice President",
        "Treasurer",
        "Owner",
        "Partner",
        "CEO",
        "Secretary",
        "Director",
        "Controller",
        "Accountant",
        "Chairman",
        "Contact Only",
      ],
      (v) => ({ owner_one: { job_title: v } }),
    ],
    ["main_product.category", [...productCategories], (v) => ({ main_product: { category: v } })],
    [
      "capabilities.types",
      ["two_tiered", "pass_through_ic", "flat_rate", "tiered", "cash_discount", "ach"],
      (v) => ({ capabilities: { types: [v] } }),
    ],
    [
      "capabilities.options.cash_discount.advantage_rate",
      ["4.00", "3.99", "3.75", "3.50", "3.25", "3.00"],
      (v) => ({ capabilities: { options: { cash_discount: { advantage_rate: v } } } }),
    ],
  ];
  describe.each(enumCases)("merchant.%s", (field, values, build) => {
    test.each(values)("accepts %s", async (value) => {
      expect((await create({ phone: "+14155550123", merchant: build(value) })).status).toBe(200);
    });
    test("rejects a value outside the enumeration, naming the field", async () => {
      const res = await create({ phone: "+14155550123", merchant: build("Not A Value") });
      expect(res.status).toBe(400);
      expect(res.json.error.param).toMatch(new RegExp(`^merchant\\.${field.replace(/\./g, "\\.")}`));
    });
  });

  test("accepts every listed subcategory", async () => {
    expect(productSubcategories).toHaveLength(242);
    for (const subcategory of productSubcategories.slice(0, 242)) {
      const res = await create({ phone: "+14155550123", merchant: { main_product: { subcategory } } });
      expect(res.status, subcategory).toBe(200);
    }
    const bad = await create({ phone: "+14155550123", merchant: { main_product: { subcategory: "Crypto Mining" } } });
    expect(bad.json.error.param).toBe("merchant.main_product.subcategory");
  }, 120_000);

  test.each([
    ["0", 200],
    ["100", 200],
    ["33.33", 200],
    ["100.01", 400],
    ["-1", 400],
    ["50%", 400],
    ["abc", 400],
  ])("owner_one.ownership_percentage %s answers %i", async (value, status) => {
    const res = await create({ phone: "+14155550123", merchant: { owner_one: { ownership_percentage: value } } });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.json.error.param).toBe("merchant.owner_one.ownership_percentage");
  });

  test("ACH overrides: only monthly_fee, txn_fee_fixed and txn_fee_percent", async () => {
    const ok = await create({
      phone: "+14155550123",
      merchant: {
        capabilities: {
          types: ["ach"],
          options: { ach: { monthly_fee: "5.00", txn_fee_fixed: "0.20", txn_fee_percent: "0.40" } },
        },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.merchant.capabilities.options.ach).toEqual({
      monthly_fee: "5.00",
      txn_fee_fixed: "0.20",
      txn_fee_percent: "0.40",
    });
    const bad = await create({
      phone: "+14155550123",
      merchant: { capabilities: { options: { ach: { return_fee_fixed: "1.00" } } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: "override_not_allowed",
      param: "merchant.capabilities.options.ach.return_fee_fixed",
    });
  });

  test("fee overrides: only the two monthly fees", async () => {
    const ok = await create({
      phone: "+14155550123",
      merchant: { fees: { monthly: { minimum_processing_fee: 25, merchant_advance_service_charge: 1.5 } } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.merchant.fees).toEqual({
      monthly: { minimum_processing_fee: 25, merchant_advance_service_charge: 1.5 },
    });
    const bad = await create({ phone: "+14155550123", merchant: { fees: { monthly: { statement_fee: 5 } } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe("merchant.fees.monthly.statement_fee");
  });

  test("an owner five is rejected; owners one to four are accepted", async () => {
    const owner = application().owner_two;
    const ok = await create({
      phone: "+14155550123",
      merchant: { owner_one: owner, owner_two: owner, owner_three: owner, owner_four: owner },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.merchant.owner_four.ssn).toBe("*****5678");
  });

  test.each([
    ["14 digits", "49015420323751"],
    ["a bad check digit", "490154203237519"],
    ["letters", "49015420323751A"],
  ])("device.imei with %s answers 400", async (_name, imei) => {
    const res = await create({ phone: "+14155550123", device: { imei } });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe("device.imei");
  });

  test("an IMEI the ISV already has returns that merchant unchanged", async () => {
    const imei = newImei();
    expect(luhnValid(imei)).toBe(true);
    const first = await create({ phone: "+14155550123", device: { imei } });
    expect(first.json.device).toMatchObject({ imei, imei_status: "UNKNOWN" });
    expect(first.json.device.id).toMatch(/^dev_/);
    const again = await create({
      phone: "+14155550999",
      device: { imei },
      merchant: { legal_business_name: "Something else" },
    });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    // Another ISV with the same IMEI gets its own merchant.
    const theirs = await create({ phone: "+14155550123", device: { imei } }, other.auth);
    expect(theirs.json.id).not.toBe(first.json.id);
  });

  test("an IMEI a merchant typed in its own onboarding never hands its record to the ISV's new business", async () => {
    const imei = newImei();
    const typed = (await create({ phone: "+14155550123" })).json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: typed.id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    expect(
      (await api.call("PATCH", "/v1/onboarding/session", { auth: session, body: { device: { imei } } })).status,
    ).toBe(200);
    const before = (await api.call("GET", "/v1/merchants?limit=100", { auth: isv.auth })).json.data.length;
    const res = await create({
      phone: "+14155550188",
      device: { imei },
      merchant: { legal_business_name: "The intended business" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "imei_in_use", param: "device.imei" });
    expect(res.json.error.message).toContain(typed.id);
    expect(JSON.stringify(res.json)).not.toContain("+14155550123");
    expect((await api.call("GET", "/v1/merchants?limit=100", { auth: isv.auth })).json.data.length).toBe(before);
    // The merchant's record is unchanged.
    expect(
      (await api.call("GET", `/v1/merchants/${typed.id}`, { auth: isv.auth })).json.legal_business_name ?? null,
    ).not.toBe("The intended business");
  });

  test("IMEI squatting: the ISV releases the IMEI a merchant typed, then creates the right merchant with it", async () => {
    const imei = newImei();
    const squatter = (await create({ phone: "+14155550123" })).json;
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: squatter.id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    await api.call("PATCH", "/v1/onboarding/session", { auth: session, body: { device: { imei } } });
    expect((await create({ phone: "+14155550188", device: { imei } })).json.error.code).toBe("imei_in_use");

    // Another ISV cannot touch it; the merchant's own ISV releases it.
    const foreign = await api.call("POST", `/v1/merchants/${squatter.id}/device/release`, { auth: other.auth });
    expect(foreign.status).toBe(404);
    const released = await api.call("POST", `/v1/merchants/${squatter.id}/device/release`, { auth: isv.auth });
    expect(released.status).toBe(200);
    expect(released.json.device ?? null).toBeNull();
    const updated = await api.db.select().from(events).where(eq(events.objectId, squatter.id));
    expect(updated.map((e) => e.type)).toContain("merchant.updated");
    // Released twice: nothing left to release.
    const twice = await api.call("POST", `/v1/merchants/${squatter.id}/device/release`, { auth: isv.auth });
    expect(twice.status).toBe(409);
    expect(twice.json.error.code).toBe("invalid_state");

    // The IMEI is free: the intended business gets it.
    const intended = await create({ phone: "+14155550188", device: { imei } });
    expect(intended.status).toBe(200);
    expect(intended.json.id).not.toBe(squatter.id);
    expect(intended.json.device).toMatchObject({ imei, imei_status: "UNKNOWN" });
  });

  test("200 concurrent creates with one new IMEI make one merchant and 200 identical answers", async () => {
    const imei = newImei();
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => create({ phone: "+14155550123", device: { imei } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(200).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    const list = await api.call("GET", "/v1/merchants?limit=100", { auth: isv.auth });
    expect(list.json.data.filter((m: any) => m.device?.imei === imei)).toHaveLength(1);
  }, 60_000);

  test("Idempotency-Key replays the create", async () => {
    const key = `create-${Date.now()}`;
    const a = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123" },
      headers: { "idempotency-key": key },
    });
    const b = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123" },
      headers: { "idempotency-key": key },
    });
    expect(b.json.id).toBe(a.json.id);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("GET /v1/merchants", () => {
  test("paginates newest first with starting_after and ending_before, and filters by status", async () => {
    const fresh = await api.newIsv();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ phone: "+14155550123" }, fresh.auth)).json.id);
    const page1 = await api.call("GET", "/v1/merchants?limit=2", { auth: fresh.auth });
    expect(page1.json).toMatchObject({ object: "list", has_more: true, url: "/v1/merchants" });
    expect(page1.json.data.map((m: any) => m.id)).toEqual([ids[4], ids[3]]);
    const page2 = await api.call("GET", `/v1/merchants?limit=2&starting_after=${ids[3]}`, { auth: fresh.auth });
    expect(page2.json.data.map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    const page3 = await api.call("GET", `/v1/merchants?limit=2&starting_after=${ids[1]}`, { auth: fresh.auth });
    expect(page3.json).toMatchObject({ has_more: false });
    expect(page3.json.data.map((m: any) => m.id)).toEqual([ids[0]]);
    const back = await api.call("GET", `/v1/merchants?limit=2&ending_before=${ids[1]}`, { auth: fresh.auth });
    expect(back.json.data.map((m: any) => m.id)).toEqual([ids[3], ids[2]]);
    const filtered = await api.call("GET", "/v1/merchants?lead_onboarding_status=APPROVED", { auth: fresh.auth });
    expect(filtered.json.data).toEqual([]);
    const notStarted = await api.call("GET", "/v1/merchants?lead_onboarding_status=NOT_STARTED&limit=100", {
      auth: fresh.auth,
    });
    expect(notStarted.json.data).toHaveLength(5);
  });

  test.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["lead_onboarding_status=DONE", "lead_onboarding_status"],
    ["starting_after=mer_nope", "starting_after"],
  ])("?%s answers 400 naming %s", async (query, param) => {
    const res = await api.call("GET", `/v1/merchants?${query}`, { auth: isv.auth });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe(param);
  });

  test("never lists another account's merchants", async () => {
    const mine = await create({ phone: "+14155550123" });
    const theirs = await api.call("GET", "/v1/merchants?limit=100", { auth: other.auth });
    expect(theirs.json.data.map((m: any) => m.id)).not.toContain(mine.json.id);
  });
});

describe("GET and PATCH /v1/merchants/{id}", () => {
  test("another account's merchant answers 404 for every operation, and is left exactly as it was", async () => {
    const mine = (await create({ phone: "+14155550123" })).json.id;
    const before = (await api.call("GET", `/v1/merchants/${mine}`, { auth: isv.auth })).json;
    for (const [method, path, body] of [
      ["GET", `/v1/merchants/${mine}`, undefined],
      ["PATCH", `/v1/merchants/${mine}`, { deactivated: true, merchant: { legal_business_name: "Hijacked LLC" } }],
      ["PATCH", `/v1/merchants/${mine}`, { automatic_payouts: false }],
      ["POST", "/v1/onboarding_links", { merchant_id: mine, type: "account_onboarding" }],
    ] as const) {
      const res = await api.call(method, path, { auth: other.auth, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error).toMatchObject({ type: "not_found_error", code: "resource_missing" });
    }
    const after = await api.call("GET", `/v1/merchants/${mine}`, { auth: isv.auth });
    expect(after.status).toBe(200);
    expect(after.json).toEqual(before);
    // No link was made for it, and no event was written for it but its creation.
    expect(await api.db.select().from(onboardingLinks).where(eq(onboardingLinks.merchantId, mine))).toEqual([]);
    expect((await api.db.select().from(events).where(eq(events.objectId, mine))).map((e) => e.type)).toEqual([
      "merchant.created",
    ]);
  });

  test("GET accepts the ISV's sign-in JWT", async () => {
    const mine = (await create({ phone: "+14155550123" })).json.id;
    const auth = await memberBearer(api, { email: isv.user_email, password: isv.password });
    const res = await api.call("GET", `/v1/merchants/${mine}`, { auth });
    expect(res.status).toBe(200);
  });

  test("PATCH merges prefill, keeps sensitive values on a masked echo, and records merchant.updated", async () => {
    const created = await create({ phone: "+14155550123", merchant: application() });
    const id = created.json.id;
    const res = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: {
        merchant: {
          doing_business_as: "GG Noodles",
          tin: "*****6789",
          owner_two: null,
          bank_account: { bank_name: "Other Bank" },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.merchant.doing_business_as).toBe("GG Noodles");
    expect(res.json.merchant.tin).toBe("*****6789");
    expect(res.json.merchant).not.toHaveProperty("owner_two");
    expect(res.json.merchant.bank_account).toMatchObject({ bank_name: "Other Bank", routing_number: "021000021" });
    const wrongMask = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { merchant: { tin: "*****0000" } },
    });
    expect(wrongMask.status).toBe(400);
    expect(wrongMask.json.error.param).toBe("merchant.tin");
  });

  test("PATCH answers 400 for invalid fields and saves nothing", async () => {
    const id = (await create({ phone: "+14155550123", merchant: { legal_business_name: "Before" } })).json.id;
    const res = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { merchant: { legal_business_name: "After", tin_type: "VAT" } },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.param).toBe("merchant.tin_type");
    expect((await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json.merchant.legal_business_name).toBe(
      "Before",
    );
  });

  test("an owner under 18 and a business established in the future are refused where they are typed (the API, the merchant's session), whatever the TIN", async () => {
    const id = (await create({ phone: "+14155550123", merchant: { legal_business_name: "Kept", tin: "000000000" } }))
      .json.id;
    const today = new Date();
    const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
    const eighteenTomorrow = iso(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate() + 1);
    const eighteenToday = iso(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate());
    const tomorrow = iso(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1);
    const owner = { ...application().owner_one, date_of_birth: eighteenTomorrow };
    const young = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { merchant: { legal_business_name: "Changed", owner_one: owner } },
    });
    expect(young.status).toBe(400);
    expect(young.json.error).toMatchObject({
      param: "merchant.owner_one.date_of_birth",
      message: expect.stringContaining("at least 18"),
    });
    const future = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { merchant: { business_established_date: tomorrow } },
    });
    expect(future.status).toBe(400);
    expect(future.json.error).toMatchObject({
      param: "merchant.business_established_date",
      message: expect.stringContaining("future"),
    });
    const kept = (await api.call("GET", `/v1/merchants/${id}`, { auth: isv.auth })).json.merchant;
    expect(kept).toMatchObject({ legal_business_name: "Kept", business_established_date: null, owner_one: null });
    // The merchant's own session: the same rules.
    const link = (
      await api.call("POST", "/v1/onboarding_links", {
        auth: isv.auth,
        body: { merchant_id: id, type: "account_onboarding" },
      })
    ).json;
    const session = await openLink(api, link.url);
    const typed = await api.call("PATCH", "/v1/onboarding/session", {
      auth: session,
      body: { merchant: { owner_one: owner } },
    });
    expect(typed.status).toBe(400);
    expect(typed.json.error.param).toBe("merchant.owner_one.date_of_birth");
    // Eighteen today, established today: accepted.
    const ok = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: {
        merchant: {
          owner_one: { ...owner, date_of_birth: eighteenToday },
          business_established_date: iso(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()),
        },
      },
    });
    expect(ok.status).toBe(200);
  });

  test("PATCH deactivated and automatic_payouts", async () => {
    const id = (await create({ phone: "+14155550123" })).json.id;
    const res = await api.call("PATCH", `/v1/merchants/${id}`, {
      auth: isv.auth,
      body: { deactivated: true, automatic_payouts: false },
    });
    expect(res.json).toMatchObject({ deactivated: true, automatic_payouts: false });
  });

  test("an unknown merchant answers 404", async () => {
    const res = await api.call("GET", "/v1/merchants/mer_doesnotexist", { auth: isv.auth });
    expect(res.status).toBe(404);
    expect(res.json.error.param).toBe("merchant_id");
  });
});

describe("problems reported at once", () => {
  test("a prefilled routing number that fails the ABA checksum is in requirements.errors before anything is submitted", async () => {
    const isv = await api.newIsv("ABA ISV");
    const created = await api.call("POST", "/v1/merchants", {
      auth: isv.auth,
      body: { phone: "+14155550123", merchant: { bank_account: { routing_number: "121000359" } } },
    });
    expect(created.status).toBe(200);
    expect(created.json.requirements.errors).toEqual([
      {
        field: "merchant.bank_account.routing_number",
        code: "routing_number_invalid",
        message:
          "The routing number does not pass the ABA checksum. Compare it with a check from the account or with your bank's website.",
      },
    ]);
    expect(created.json.requirements.currently_due).toContain("merchant.bank_account.routing_number");
    const fixed = await api.call("PATCH", `/v1/merchants/${created.json.id}`, {
      auth: isv.auth,
      body: { merchant: { bank_account: { routing_number: "121000358" } } },
    });
    expect(fixed.json.requirements.errors).toEqual([]);
  });
});
