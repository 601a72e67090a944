import http from "node:http";

import sharp from "sharp";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";

import {
  configureUploadTiming,
  inUploadSlot,
  UPLOAD_SLOTS,
  UPLOADS_PER_MERCHANT_PER_DAY,
  uploadTiming,
} from "@/lib/files/upload-gate";

import { startTestApi, type TestApi } from "../helpers/api";

// The attacks of the security review on uploads (docs/reference.md, files): four slow bodies held
// the process's four upload slots and another ISV's upload got no answer; a duplicate of a huge
// image was decoded before it was refused; one session sent gigabytes an hour.

let api: TestApi;
let isv: Awaited<ReturnType<TestApi["newIsv"]>>;
let other: Awaited<ReturnType<TestApi["newIsv"]>>;
const defaults = { ...uploadTiming };

beforeAll(async () => {
  // The test client plays the balancer: each "client" is the address it forwards.
  api = await startTestApi({ trustProxy: "loopback" });
  isv = await api.newIsv("Uploads ISV");
  other = await api.newIsv("Other Uploads ISV");
}, 60_000);
afterAll(() => api.close());
afterEach(() => configureUploadTiming(defaults));

const newMerchant = async (auth: string) =>
  (await api.call("POST", "/v1/merchants", { auth, body: { phone: "+14155550123" } })).json.id as string;

const pdf = (n: number) =>
  Buffer.from(`%PDF-1.4\n% upload ${n}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);

function multipart(merchantId: string, file: Buffer, name = "doc.pdf", type = "application/pdf") {
  const boundary = `----b${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nadditional_verification\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="merchant_id"\r\n\r\n${merchantId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, file, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(auth: string, merchantId: string, file: Buffer, from: string, name?: string, type?: string) {
  const { body, contentType } = multipart(merchantId, file, name, type);
  const res = await fetch(`${api.baseUrl}/v1/files`, {
    method: "POST",
    headers: { authorization: auth, "content-type": contentType, "x-forwarded-for": from },
    body,
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** An upload whose body trickles in (a few bytes a second), as a slow or hostile client sends it. */
function slowUpload(auth: string, merchantId: string, from: string) {
  const { body, contentType } = multipart(merchantId, pdf(Math.random()));
  const url = new URL(`${api.baseUrl}/v1/files`);
  let timer: NodeJS.Timeout | undefined;
  const answered = new Promise<{ status: number; text: string; afterMs: number }>((resolve, reject) => {
    const started = Date.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          authorization: auth,
          "content-type": contentType,
          "content-length": body.length,
          "x-forwarded-for": from,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, text, afterMs: Date.now() - started }));
      },
    );
    req.on("error", reject);
    let offset = 0;
    const drip = () => {
      if (offset >= body.length - 1) return; // never the last byte
      req.write(body.subarray(offset, offset + 8));
      offset += 8;
      timer = setTimeout(drip, 200);
    };
    drip();
  });
  return { answered: answered.finally(() => clearTimeout(timer)) };
}

test("slow bodies hold no processing slot: another ISV's upload is answered at once, and each slow one is cut off (408)", async () => {
  // Slow but above the minimum rate: only the deadline ends them, long after the other upload's answer.
  configureUploadTiming({ deadlineMs: 5000, graceMs: 1000, minBytesPerSecond: 1 });
  const slowMerchant = await newMerchant(isv.auth);
  const slow = Array.from({ length: UPLOAD_SLOTS }, (_, i) =>
    slowUpload(isv.auth, slowMerchant, `198.51.100.${i + 1}`),
  );
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const theirs = await upload(other.auth, await newMerchant(other.auth), pdf(1), "203.0.113.9");
  expect(theirs.status).toBe(200);
  expect(Date.now() - started).toBeLessThan(3000);
  for (const s of slow) {
    const answer = await s.answered;
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.text).error).toMatchObject({ type: "invalid_request_error", code: "upload_timeout" });
    expect(answer.afterMs).toBeGreaterThanOrEqual(4500);
    expect(answer.afterMs).toBeLessThan(8000);
  }
}, 30_000);

test("one client address reads at most two uploads at once: a third is refused with 429", async () => {
  configureUploadTiming({ deadlineMs: 3000, graceMs: 2500, minBytesPerSecond: 1 });
  const merchant = await newMerchant(isv.auth);
  const open = [slowUpload(isv.auth, merchant, "198.51.100.50"), slowUpload(isv.auth, merchant, "198.51.100.50")];
  await new Promise((r) => setTimeout(r, 300));
  const third = await upload(isv.auth, merchant, pdf(2), "198.51.100.50");
  expect([third.status, third.json.error.code]).toEqual([429, "rate_limited"]);
  // Another address meanwhile: answered.
  expect((await upload(isv.auth, merchant, pdf(3), "198.51.100.51")).status).toBe(200);
  await Promise.all(open.map((o) => o.answered));
}, 30_000);

test("a duplicate is refused before it is decoded: with every processing slot busy, the same image again answers 409 at once", async () => {
  const merchant = await newMerchant(isv.auth);
  const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#336699" } })
    .jpeg()
    .withExif({ IFD0: { Orientation: "6" } })
    .toBuffer();
  const first = await upload(isv.auth, merchant, image, "198.51.100.60", "id.jpg", "image/jpeg");
  expect(first.status).toBe(200);
  let release!: () => void;
  const busy = new Promise<void>((r) => (release = r));
  const holders = Array.from({ length: UPLOAD_SLOTS }, () => inUploadSlot("someone-else", () => busy));
  try {
    const again = await Promise.race([
      upload(isv.auth, merchant, image, "198.51.100.61", "copy.jpg", "image/jpeg"),
      new Promise<null>((r) => setTimeout(() => r(null), 3000)),
    ]);
    expect(again).not.toBeNull();
    expect([again!.status, again!.json.error.code]).toEqual([409, "file_duplicate"]);
  } finally {
    release();
    await Promise.all(holders);
  }
}, 30_000);

test(`a merchant's day holds ${UPLOADS_PER_MERCHANT_PER_DAY} uploads, refused ones included; past it 429 upload_quota_exceeded, other merchants unaffected`, async () => {
  const merchant = await newMerchant(isv.auth);
  const statuses: number[] = [];
  for (let i = 0; i < UPLOADS_PER_MERCHANT_PER_DAY; i++)
    statuses.push((await upload(isv.auth, merchant, pdf(7), `198.51.100.${100 + (i % 50)}`)).status);
  expect(statuses[0]).toBe(200);
  expect(new Set(statuses.slice(1))).toEqual(new Set([409]));
  const past = await upload(isv.auth, merchant, pdf(8), "198.51.100.99");
  expect([past.status, past.json.error.code]).toEqual([429, "upload_quota_exceeded"]);
  expect(Number.isInteger(Number(past.json.error.message.match(/\d+/)![0]))).toBe(true);
  expect((await upload(isv.auth, await newMerchant(isv.auth), pdf(8), "198.51.100.98")).status).toBe(200);
}, 60_000);
