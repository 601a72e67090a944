import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { fileContents, files } from "@/lib/db/schema";
import example from "@/lib/schemas/examples/merchant-application.json" with { type: "json" };
import { fileSchema } from "@/lib/schemas/files";

import { startTestApi, type TestApi } from "../helpers/api";

// Files (docs/reference.md, files): recognised from their bytes, cleaned, encrypted at rest, served
// to their owner only; every bad input a clear 4xx that leaves nothing behind.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
let merchantId: string;
const owner = example.owner_one;

beforeAll(async () => {
  api = await startTestApi();
  isv = await api.newIsv("Files ISV");
  other = await api.newIsv("Other ISV");
  const created = await api.call("POST", "/v1/merchants", {
    auth: isv.auth,
    body: { phone: "+14155550123", merchant: { legal_business_name: "Docs LLC", owner_one: owner } },
  });
  expect(created.status).toBe(200);
  merchantId = created.json.id;
}, 60_000);
afterAll(() => api.close());

const exifMarker = "GPS-SECRET-37.7749N-122.4194W";
async function photo(seed = 0) {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: seed % 256, b: 10 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: exifMarker, ImageDescription: exifMarker } })
    .toBuffer();
}
const pdf = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** A PNG whose header declares width × height (with a correct CRC) over a few bytes of data: a decompression bomb's shape. */
function declaredPng(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(64))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function upload(
  fields: Record<string, string>,
  file: { bytes: Buffer; name: string; type?: string } | null,
  headers: Record<string, string> = { authorization: isv.auth },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file)
    form.set(
      "file",
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }),
      file.name,
    );
  const res = await fetch(`${api.baseUrl}/v1/files`, { method: "POST", body: form, headers });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
const get = (path: string, auth = isv.auth) => fetch(`${api.baseUrl}${path}`, { headers: { authorization: auth } });
const fileCount = async () => (await api.db.select().from(files).where(eq(files.merchantId, merchantId))).length;

describe("files", () => {
  test("a photo: recognised from its bytes, stored without its EXIF, encrypted at rest, served to its owner", async () => {
    const original = await photo(1);
    expect(original.includes(Buffer.from(exifMarker))).toBe(true);
    // Named and declared as a PDF: the content says JPEG.
    const res = await upload(
      { purpose: "additional_verification", merchant_id: merchantId, subject: "owner_one" },
      { bytes: original, name: "../../etc/licence.pdf", type: "application/pdf" },
    );
    expect(res.status).toBe(200);
    const file = fileSchema.parse(res.json);
    expect(file).toMatchObject({
      merchant_id: merchantId,
      purpose: "additional_verification",
      subject: "owner_one",
      filename: "licence.pdf",
      type: "jpg",
    });
    expect(file.id).toMatch(/^file_[0-9A-Za-z]{22}$/);

    const described = await get(`/v1/files/${file.id}`);
    expect(await described.json()).toEqual(file);
    const contents = await get(`/v1/files/${file.id}/contents`);
    expect(contents.status).toBe(200);
    expect(contents.headers.get("content-type")).toBe("image/jpeg");
    expect(contents.headers.get("cache-control")).toBe("private, no-store");
    // Saved under the detected type's extension, whatever the uploader called it.
    expect(contents.headers.get("content-disposition")).toMatch(/^attachment; filename="licence\.jpg"/);
    const served = Buffer.from(await contents.arrayBuffer());
    expect(served.length).toBe(file.size);
    expect((await sharp(served).metadata()).format).toBe("jpeg");
    expect(served.includes(Buffer.from(exifMarker))).toBe(false);
    expect((await sharp(served).metadata()).exif).toBeUndefined();

    // At rest: neither the served bytes nor the original's are in the table in the clear.
    const [stored] = await api.db.select().from(fileContents).where(eq(fileContents.fileId, file.id));
    expect(stored!.content.length).toBeGreaterThan(served.length);
    const slice = served.subarray(200, 264);
    expect(stored!.content.includes(slice)).toBe(false);
    expect(stored!.content.includes(Buffer.from(exifMarker))).toBe(false);
    expect(stored!.content.includes(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false);

    // Nor in any other table: every row of every table, as text (bytea as hex), lacks both slices.
    const originalSlice = original.subarray(original.length - 96, original.length - 32);
    const tables = (
      await api.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public'`)
    ).rows.map((r) => (r as { table_name: string }).table_name);
    expect(tables).toContain("file_contents");
    for (const table of tables) {
      const rows = (await api.db.execute(sql.raw(`select t::text as row from "${table}" t`))).rows as { row: string }[];
      const text = rows.map((r) => r.row).join("\n");
      for (const bytes of [slice, originalSlice]) {
        expect(text.includes(bytes.toString("hex")), table).toBe(false);
        expect(text.includes(bytes.toString("base64")), table).toBe(false);
      }
    }
    // Nor in any file of the embedded database's data directory (PGlite keeps it on disk).
    if (api.handle.kind === "pglite") {
      await api.db.execute(sql`checkpoint`);
      const dir = process.env.DATA_DIR!;
      for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const bytes = fs.readFileSync(path.join(entry.parentPath, entry.name));
        expect(bytes.includes(slice), entry.name).toBe(false);
        expect(bytes.includes(originalSlice), entry.name).toBe(false);
      }
    }
  });

  test("a PDF is kept as sent; the same document twice is refused (409) and stored once", async () => {
    const res = await upload(
      { purpose: "additional_verification", merchant_id: merchantId },
      { bytes: pdf, name: "articles.pdf" },
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ type: "pdf", size: pdf.length, subject: null });
    expect(Buffer.from(await (await get(`/v1/files/${res.json.id}/contents`)).arrayBuffer())).toEqual(pdf);
    const before = await fileCount();
    const again = await upload(
      { purpose: "additional_verification", merchant_id: merchantId },
      { bytes: pdf, name: "copy.pdf" },
    );
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: "file_duplicate", param: "file" });
    expect(again.json.error.message).toContain(res.json.id);
    expect(await fileCount()).toBe(before);
    // The same document for another purpose is a file of its own (an ID given again as a dispute's
    // evidence); twice for that purpose, refused like the first.
    const other = await upload(
      { purpose: "dispute_evidence", merchant_id: merchantId },
      { bytes: pdf, name: "evidence.pdf" },
    );
    expect(other.status).toBe(200);
    expect(other.json).toMatchObject({ purpose: "dispute_evidence", type: "pdf" });
    expect(other.json.id).not.toBe(res.json.id);
    const otherAgain = await upload(
      { purpose: "dispute_evidence", merchant_id: merchantId },
      { bytes: pdf, name: "evidence-2.pdf" },
    );
    expect([otherAgain.status, otherAgain.json.error.code]).toEqual([409, "file_duplicate"]);
    expect(otherAgain.json.error.message).toContain(other.json.id);
    expect(await fileCount()).toBe(before + 1);
  });

  test("bad input: each a clear 4xx in the contract's shape, nothing stored", async () => {
    const before = await fileCount();
    const cases: [Record<string, string>, { bytes: Buffer; name: string } | null, number, string][] = [
      [
        { purpose: "additional_verification", merchant_id: merchantId },
        { bytes: Buffer.alloc(0), name: "empty.pdf" },
        400,
        "file_empty",
      ],
      [
        { purpose: "additional_verification", merchant_id: merchantId },
        {
          bytes: Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), Buffer.alloc(512, 1)]),
          name: "statement.pdf",
        },
        400,
        "file_type_unsupported",
      ],
      [
        { purpose: "additional_verification", merchant_id: merchantId },
        { bytes: Buffer.from("<svg/>"), name: "a.png" },
        400,
        "file_type_unsupported",
      ],
      [
        { purpose: "additional_verification", merchant_id: merchantId },
        { bytes: declaredPng(30_000, 30_000), name: "bomb.png" },
        400,
        "image_too_large",
      ],
      [
        { purpose: "additional_verification", merchant_id: merchantId },
        { bytes: (await photo(7)).subarray(0, 300), name: "cut.jpg" },
        400,
        "file_unreadable",
      ],
      [{ purpose: "additional_verification", merchant_id: merchantId }, null, 400, "parameter_missing"],
      [{ purpose: "selfie", merchant_id: merchantId }, { bytes: pdf, name: "x.pdf" }, 400, "parameter_invalid"],
      [
        { purpose: "identity_document", merchant_id: merchantId },
        { bytes: await photo(8), name: "id.jpg" },
        400,
        "parameter_missing",
      ],
      [
        { purpose: "identity_document", merchant_id: merchantId, subject: "owner_two" },
        { bytes: await photo(9), name: "id.jpg" },
        400,
        "parameter_invalid",
      ],
      [{ purpose: "additional_verification" }, { bytes: await photo(10), name: "x.jpg" }, 400, "parameter_missing"],
    ];
    for (const [fields, file, status, code] of cases) {
      const res = await upload(fields, file);
      expect([res.status, res.json?.error?.code], `${JSON.stringify(fields)} ${file?.name}`).toEqual([status, code]);
      expect(res.json.error.type).toBe("invalid_request_error");
    }
    // Not multipart: 415.
    const json = await api.call("POST", "/v1/files", { auth: isv.auth, body: { purpose: "additional_verification" } });
    expect([json.status, json.json.error.code]).toEqual([415, "unsupported_media_type"]);
    expect(await fileCount()).toBe(before);
  });

  test("isolation: another ISV can neither read a file nor add one to this merchant (404)", async () => {
    const mine = await upload(
      { purpose: "additional_verification", merchant_id: merchantId },
      { bytes: await photo(20), name: "a.jpg" },
    );
    expect(mine.status).toBe(200);
    expect((await get(`/v1/files/${mine.json.id}`, other.auth)).status).toBe(404);
    expect((await get(`/v1/files/${mine.json.id}/contents`, other.auth)).status).toBe(404);
    const foreign = await upload(
      { purpose: "additional_verification", merchant_id: merchantId },
      { bytes: await photo(21), name: "b.jpg" },
      { authorization: other.auth },
    );
    expect([foreign.status, foreign.json.error.code]).toEqual([404, "resource_missing"]);
  });

  test("the merchant's own onboarding session uploads for itself only, and reads its own files", async () => {
    const link = await api.call("POST", "/v1/onboarding_links", {
      auth: isv.auth,
      body: { merchant_id: merchantId, type: "account_onboarding" },
    });
    const opened = await fetch(api.baseUrl + new URL(link.json.url).pathname, { redirect: "manual" });
    const token = opened.headers.get("set-cookie")!.match(/onboarding_session=([^;]+)/)![1]!;
    const session = { authorization: `Bearer ${token}` };
    const own = await upload(
      { purpose: "additional_verification", subject: "owner_one" },
      { bytes: await photo(30), name: "id.jpg" },
      session,
    );
    expect(own.status).toBe(200);
    expect(own.json.merchant_id).toBe(merchantId);
    expect((await fetch(`${api.baseUrl}/v1/files/${own.json.id}`, { headers: session })).status).toBe(200);
    // Another merchant of the same ISV: not this session's.
    const sibling = await api.call("POST", "/v1/merchants", { auth: isv.auth, body: { phone: "+14155550124" } });
    const theirs = await upload(
      { purpose: "additional_verification", merchant_id: sibling.json.id },
      { bytes: await photo(31), name: "x.jpg" },
      session,
    );
    expect([theirs.status, theirs.json.error.code]).toEqual([404, "resource_missing"]);
  });
  // Last: a refused upload's connection is closed by the server.
  test("over 10 MB: 413 before the body is read (declared), and as it streams (chunked)", async () => {
    const big = Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024 + 1, 32)]);
    const before = await fileCount();
    const declared = await upload(
      { purpose: "additional_verification", merchant_id: merchantId },
      { bytes: big, name: "big.pdf" },
    );
    expect([declared.status, declared.json.error.code]).toEqual([413, "file_too_large"]);
    // Chunked: no length declared; refused once 10 MB have passed.
    const boundary = "----onbtest";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nadditional_verification\r\n--${boundary}\r\nContent-Disposition: form-data; name="merchant_id"\r\n\r\n${merchantId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
        for (let i = 0; i < 12; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const chunked = await fetch(`${api.baseUrl}/v1/files`, {
      method: "POST",
      body: stream,
      headers: { authorization: isv.auth, "content-type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await chunked.json()).error.code).toBe("file_too_large");
    expect(await fileCount()).toBe(before);
  });
});
