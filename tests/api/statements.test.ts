import http from "node:http";
import type { AddressInfo } from "node:net";

import { eq } from "drizzle-orm";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { charges, events, statements } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { statementPdf } from "@/lib/pdf/statement-pdf";

import { startTestApi, type TestApi } from "../helpers/api";
import { postingsAt } from "../helpers/ledger";
import { approvedMerchant, tokenize } from "../helpers/payments";
import { pdfText, pdfToPngs } from "../helpers/pdf";

// A month of activity on two merchants on different pricing models, its statements, and every
// figure of the JSON, the CSV and the PDF's text checked against the charges and refunds.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let flat: Awaited<ReturnType<typeof approvedMerchant>>;
let cash: Awaited<ReturnType<typeof approvedMerchant>>;
const period = new Date().toISOString().slice(0, 7);
const flatCharges: string[] = [];

const post = (path: string, body: unknown, auth = isv.auth) => api.call("POST", path, { auth, body });
const get = (path: string, auth = isv.auth) => api.call("GET", path, { auth });

async function pay(merchant: Awaited<ReturnType<typeof approvedMerchant>>, amount: number, card = "4242424242424242") {
  const pr = (await post("/v1/scan_to_pay", { merchant_id: merchant.id, amount })).json;
  const res = await api.call("POST", `/v1/payment_requests/${pr.id}/pay`, {
    body: { token: await tokenize(api, merchant.publishableKey, card) },
  });
  return res.json.charge.id as string;
}
const cents = (decimal: string) => {
  const [whole, fraction = "0"] = decimal.replace("-", "").split(".");
  return (decimal.startsWith("-") ? -1 : 1) * (Number(whole) * 100 + Number(fraction.padEnd(2, "0")));
};

beforeAll(async () => {
  api = await startTestApi({ worker: true });
  isv = await api.newIsv("Statement ISV");
  flat = await approvedMerchant(api, isv, (a) => {
    a.capabilities = { types: ["flat_rate"] };
    a.fees = { monthly: { minimum_processing_fee: 500 } };
  });
  cash = await approvedMerchant(api, isv, (a) => {
    a.capabilities = { types: ["cash_discount"], options: { cash_discount: { advantage_rate: "3.99" } } };
    a.fees = { monthly: { merchant_advance_service_charge: 9.99 } };
  });
  // 300 charges (several pages of PDF), three brands, one declined; two refunds.
  const cards = ["4242424242424242", "5555555555554444", "378282246310005"];
  for (let i = 0; i < 300; i += 20) {
    flatCharges.push(
      ...(await Promise.all(Array.from({ length: 20 }, (_, k) => pay(flat, 1000 + i + k, cards[(i + k) % 3])))),
    );
  }
  await pay(flat, 999, "4000000000000002");
  await post("/v1/refunds", { charge_id: flatCharges[0], amount: 500 });
  await post("/v1/refunds", { charge_id: flatCharges[1] });
  for (const amount of [10_399, 2_599, 104]) await pay(cash, amount);
}, 180_000);
afterAll(() => api.close());

describe("monthly statements", () => {
  test("the JSON adds up to the charges and refunds; monthly fees by model; brands and days", async () => {
    const made = await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period });
    expect(made.status).toBe(200);
    const s = made.json;
    const charges: any[] = [];
    for (let after = ""; ;) {
      const page = (await get(`/v1/charges?merchant_id=${flat.id}&limit=100${after}`)).json;
      charges.push(...page.data);
      if (!page.has_more) break;
      after = `&starting_after=${page.data.at(-1).id}`;
    }
    const paid = charges.filter((c) => c.status !== "FAILED");
    expect(paid).toHaveLength(300);
    const refunds = (await get(`/v1/refunds?merchant_id=${flat.id}&limit=100`)).json.data;
    const gross = paid.reduce((sum, c) => sum + c.amount_captured, 0);
    const processing = paid.reduce((sum, c) => sum + c.fee, 0);
    const refunded = refunds.reduce((sum: number, r: any) => sum + r.amount, 0);
    const topUp = 50_000 - processing; // $500.00 minimum
    expect(topUp).toBeGreaterThan(0);
    expect(s).toMatchObject({
      object: "statement",
      merchant_id: flat.id,
      period,
      currency: "usd",
      charge_count: 300,
      refund_count: 2,
      gross_volume: gross,
      refunds: refunded,
    });
    expect(s.fees).toBe(processing + topUp);
    expect(s.net).toBe(gross - refunded - processing - topUp);
    expect(s.fee_lines.reduce((sum: number, l: any) => sum + l.amount, 0)).toBe(s.fees);
    expect(s.fee_lines.find((l: any) => l.kind === "monthly")).toEqual({
      kind: "monthly",
      model: "flat_rate",
      description: "Minimum processing fee top-up",
      count: 1,
      amount: topUp,
    });
    expect(s.card_brands.map((b: any) => [b.brand, b.count])).toEqual(
      expect.arrayContaining([
        ["visa", 100],
        ["mastercard", 100],
        ["amex", 100],
      ]),
    );
    expect(s.card_brands.reduce((sum: number, b: any) => sum + b.volume, 0)).toBe(gross);
    expect(s.daily_totals.reduce((sum: number, d: any) => sum + d.volume, 0)).toBe(gross);
    expect(s.daily_totals.reduce((sum: number, d: any) => sum + d.refunds, 0)).toBe(refunded);
    expect(s.daily_totals.reduce((sum: number, d: any) => sum + d.fees, 0)).toBe(processing);
    expect((await get(`/v1/statements/${flat.id}/${s.id}`)).json).toEqual(s);
    expect((await api.db.select().from(events).where(eq(events.objectId, s.id))).map((e) => e.type)).toEqual([
      "statement.created",
    ]);

    const cashStatement = (await post("/v1/test_helpers/statements/generate", { merchant_id: cash.id, period })).json;
    // Cash discount 3.99: 10399 → 399, 2599 → 100 (99.72), 104 → 4 (3.99); plus the $9.99 monthly charge.
    expect(cashStatement).toMatchObject({
      gross_volume: 13_102,
      refunds: 0,
      fees: 399 + 100 + 4 + 999,
      net: 13_102 - 1_502,
    });
  });

  test("the CSV has every charge and refund, adding up (its cells' formula guard: lib/statements/statement-csv.test.ts)", async () => {
    const s = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period })).json;
    const res = await fetch(`${api.baseUrl}/v1/statements/${flat.id}/download/${s.id}?format=csv`, {
      headers: { authorization: isv.auth },
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const [header, ...rows] = (await res.text())
      .trim()
      .split("\n")
      .map((l) => l.split(","));
    expect(header).toEqual([
      "type",
      "id",
      "charge_id",
      "created_at",
      "amount",
      "fee",
      "net",
      "card_brand",
      "card_last_4",
      "card_entry_method",
      "description",
    ]);
    const detail = (await get(`/v1/statements/${flat.id}/${s.id}`)).json;
    const monthFees = detail.fee_lines.filter((l: any) => l.kind !== "processing");
    expect(monthFees.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(302 + monthFees.length);
    expect(rows.filter((r) => r[0] === "charge")).toHaveLength(300);
    // Every fee of the month has its row, at the period's last instant, so that the CSV reconciles.
    expect(rows.filter((r) => r[0] === "fee").map((r) => [r[3], cents(r[5]!), r[10]])).toEqual(
      monthFees.map((l: any) => [
        new Date(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5)), 1) - 1).toISOString(),
        l.amount,
        l.count > 1 ? `${l.description} (${l.count})` : l.description,
      ]),
    );
    expect(rows.reduce((sum, r) => sum + cents(r[4]!), 0)).toBe(s.gross_volume - s.refunds - s.returns + s.reversals);
    expect(rows.reduce((sum, r) => sum + cents(r[5]!), 0)).toBe(s.fees);
    expect(rows.reduce((sum, r) => sum + cents(r[6]!), 0)).toBe(s.net);
    expect(new Set(rows.filter((r) => r[0] === "charge").map((r) => r[1]))).toEqual(new Set(flatCharges));
  });

  test("the PDF: branded, every charge and refund, the totals, several pages numbered 'Page X of Y'", async () => {
    const s = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period })).json;
    const started = Date.now();
    const res = await fetch(`${api.baseUrl}/v1/statements/${flat.id}/download/${s.id}`, {
      headers: { authorization: isv.auth },
    });
    const ms = Date.now() - started;
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const pages = await pdfText(bytes);
    expect(pages.length).toBeGreaterThan(3);
    // Every page as a PNG, kept by CI (artifacts/documents).
    const started2 = Date.now();
    expect(pdfToPngs(bytes, "statement-300-charges")).toHaveLength(pages.length);
    console.log(`statement PDF rendered to ${pages.length} PNG pages in ${Date.now() - started2} ms`);
    pages.forEach((text, i) => expect(text).toContain(`Page ${i + 1} of ${pages.length}`));
    const all = pages.join("\n");
    expect(all).toContain("Statement ISV");
    expect(all).toContain("Golden Gate Noodles");
    for (const id of flatCharges) expect(all).toContain(id);
    const money = (c: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(c / 100);
    for (const figure of [s.gross_volume, s.net]) expect(all).toContain(money(figure));
    expect(all).toContain(money(-s.refunds));
    expect(all).toContain("Minimum processing fee top-up");
    console.log(`statement PDF: 300 charges, ${pages.length} pages, ${ms} ms`);
  });

  test("the unfinished month is a preview, made again with later activity (same id); a finished month's statement is a snapshot", async () => {
    const first = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period })).json;
    expect(first.final).toBe(false);
    await pay(flat, 7777);
    const again = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period })).json;
    expect(again).toMatchObject({
      id: first.id,
      final: false,
      charge_count: first.charge_count + 1,
      gross_volume: first.gross_volume + 7777,
    });
    expect(Date.parse(again.created_at)).toBeGreaterThanOrEqual(Date.parse(first.created_at));
    expect(await api.db.select().from(statements).where(eq(statements.merchantId, flat.id))).toHaveLength(1);
    const list = (await get(`/v1/statements/${flat.id}`)).json;
    expect(list).toMatchObject({ object: "list", has_more: false, data: [{ id: first.id, period, final: false }] });
    // The PDF says it is a preview.
    const pdf = await fetch(`${api.baseUrl}/v1/statements/${flat.id}/download/${first.id}`, {
      headers: { authorization: isv.auth },
    });
    expect((await pdfText(new Uint8Array(await pdf.arrayBuffer())))[0]).toContain("preview: the month has not ended");

    // A finished month (January 2026, the charges moved there): final at once, and a snapshot.
    const january = [await pay(flat, 1_000), await pay(flat, 2_000)];
    await api.db
      .update(charges)
      .set({ capturedAt: new Date("2026-01-15T12:00:00Z"), createdAt: new Date("2026-01-15T12:00:00Z") })
      .where(eq(charges.id, january[0]!));
    await postingsAt(api.db, [january[0]!], ["charge"], new Date("2026-01-15T12:00:00Z"));
    const closed = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: "2026-01" }))
      .json;
    expect(closed).toMatchObject({ final: true, charge_count: 1, gross_volume: 1_000 });
    await api.db
      .update(charges)
      .set({ capturedAt: new Date("2026-01-20T12:00:00Z"), createdAt: new Date("2026-01-20T12:00:00Z") })
      .where(eq(charges.id, january[1]!));
    await postingsAt(api.db, [january[1]!], ["charge"], new Date("2026-01-20T12:00:00Z"));
    expect(
      (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: "2026-01" })).json,
    ).toEqual(closed);
    // A preview made during January (as if): the first generation after the month made it final,
    // with the whole month; from then on it never changes.
    await api.db.update(statements).set({ final: false }).where(eq(statements.id, closed.id));
    const finalised = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: "2026-01" }))
      .json;
    expect(finalised).toMatchObject({ id: closed.id, final: true, charge_count: 2, gross_volume: 3_000 });
    expect(
      (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: "2026-01" })).json,
    ).toEqual(finalised);
    // Only the first creation is announced.
    const created = await api.db.select().from(events).where(eq(events.objectId, first.id));
    expect(created.map((e) => e.type)).toEqual(["statement.created"]);
  });

  test("bad periods, months without activity and another ISV", async () => {
    for (const bad of ["2026-13", "26-01", "2026/01"])
      expect(
        (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: bad })).json.error.param,
      ).toBe("period");
    const empty = await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period: "2020-01" });
    expect(empty.status).toBe(400);
    const other = await api.newIsv("Other");
    const s = (await post("/v1/test_helpers/statements/generate", { merchant_id: flat.id, period })).json;
    for (const path of [
      `/v1/statements/${flat.id}`,
      `/v1/statements/${flat.id}/${s.id}`,
      `/v1/statements/${flat.id}/download/${s.id}`,
    ]) {
      expect((await get(path, other.auth)).status).toBe(404);
    }
    expect((await get(`/v1/statements/${cash.id}/${s.id}`)).status).toBe(404);
  });

  test("the ISV's logo on every page; a logo on a private address is never fetched (even in sandbox) and leaves the statement whole", async () => {
    const png = await QRCode.toBuffer("Statement ISV", { type: "png", width: 96 });
    let served = 0;
    const logoServer = http.createServer((req, res) => {
      served++;
      res.end(png);
    });
    await new Promise<void>((resolve) => logoServer.listen(0, "127.0.0.1", resolve));
    const logoBase = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}`;
    const account = (await get("/v1/account")).json;
    const download = async () => {
      const s = (await post("/v1/test_helpers/statements/generate", { merchant_id: cash.id, period })).json;
      const res = await fetch(`${api.baseUrl}/v1/statements/${cash.id}/download/${s.id}`, {
        headers: { authorization: isv.auth },
      });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const images = (bytes: Uint8Array) =>
      (
        Buffer.from(bytes)
          .toString("latin1")
          .match(/\/Subtype \/Image/g) ?? []
      ).length;
    try {
      // An uploaded logo (the dashboard's upload is a data URL).
      const set = await api.call("PATCH", "/v1/account", {
        auth: isv.auth,
        body: { defaults: { logo: `data:image/png;base64,${png.toString("base64")}` } },
      });
      expect(set.status).toBe(200);
      const withLogo = await download();
      expect(images(withLogo)).toBe(1); // one image, drawn on every page
      pdfToPngs(withLogo, "statement-with-logo");

      // Sandbox SSRF: a logo URL on this machine's loopback (or any private address) is not fetched.
      await api.call("PATCH", "/v1/account", {
        auth: isv.auth,
        body: { defaults: { logo: `${logoBase}/logo.png` } },
      });
      const without = await download();
      expect(served).toBe(0);
      expect(images(without)).toBe(0);
      expect((await pdfText(without)).join("\n")).toMatch(/Monthly statement|Estado de cuenta mensual/);
      pdfToPngs(without, "statement-monogram");
    } finally {
      await api.call("PATCH", "/v1/account", { auth: isv.auth, body: { defaults: { logo: account.defaults.logo } } });
      logoServer.close();
    }
  });

  test("in Spanish", async () => {
    const [row] = await api.db.select().from(statements).where(eq(statements.merchantId, cash.id));
    const bytes = await statementPdf({
      statement: row!,
      branding: { display_name: "Statement ISV", primary_color: "#0F766E" },
      logo: null,
      business: "Fideos",
      gatewayMerchantId: "gw_x",
      locale: "es",
    });
    const text = (await pdfText(bytes)).join("\n");
    expect(text).toContain("Estado de cuenta mensual");
    // The merchant named as everywhere else (mer_…), the processor's MID beside it.
    expect(text).toContain(`ID de comercio: ${cash.id} · MID del procesador: gw_x`);
    expect(text).toContain("Página 1 de 1");
    expect(text).toContain("Comisiones por modelo de precios");
    expect(text).toContain("Descuento por pago en efectivo, 3.99 % incluido en el precio con tarjeta");
    expect(text).toContain("Cargo por servicio de anticipo al comercio");
    expect(text).not.toContain("included in the card price");
  });
});

test("the ledger's invariants hold after every test above (docs/reference.md section 18)", async () => {
  expect(await checkLedger(api.db)).toEqual([]);
});
