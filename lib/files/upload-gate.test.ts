import { afterEach, describe, expect, test } from "vitest";

import {
  asUploadingClient,
  configureUploadTiming,
  inUploadSlot,
  readUploadBody,
  UPLOAD_SLOTS,
  uploadTiming,
  withinPixelBudget,
} from "./upload-gate";

const defaults = { ...uploadTiming };
afterEach(() => configureUploadTiming(defaults));

/** A body that sends `chunks` of `size` bytes, one every `everyMs`. */
function trickle(chunks: number, size: number, everyMs: number) {
  let sent = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === chunks) return controller.close();
      await new Promise((r) => setTimeout(r, everyMs));
      if (cancelled) return;
      sent++;
      controller.enqueue(new Uint8Array(size));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe("readUploadBody", () => {
  test("a whole body within its time is read", async () => {
    const { stream } = trickle(4, 1000, 5);
    expect((await readUploadBody(stream, 10_000)).length).toBe(4000);
  });

  test("the limit is exact: a body of maxBytes is read; one byte more is file_too_large", async () => {
    expect((await readUploadBody(trickle(4, 1000, 1).stream, 4000)).length).toBe(4000);
    await expect(readUploadBody(trickle(4, 1000, 1).stream, 3999)).rejects.toMatchObject({ code: "file_too_large" });
  });

  test("past maxBytes: file_too_large, and the stream is cancelled", async () => {
    const body = trickle(10, 1000, 1);
    await expect(readUploadBody(body.stream, 2500)).rejects.toMatchObject({ code: "file_too_large" });
    expect(body.cancelled()).toBe(true);
  });

  test("a body slower than the minimum rate after the grace is cut off (upload_timeout)", async () => {
    configureUploadTiming({ graceMs: 200, minBytesPerSecond: 10_000, deadlineMs: 10_000 });
    const body = trickle(100, 10, 50); // 200 bytes a second
    const started = Date.now();
    await expect(readUploadBody(body.stream, 1_000_000)).rejects.toMatchObject({ code: "upload_timeout" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(body.cancelled()).toBe(true);
  });

  test("a body fast enough but longer than the deadline is cut off", async () => {
    configureUploadTiming({ graceMs: 10_000, minBytesPerSecond: 1, deadlineMs: 300 });
    const body = trickle(100, 1000, 20);
    await expect(readUploadBody(body.stream, 1_000_000)).rejects.toMatchObject({ code: "upload_timeout" });
  });
});

test("one client reads at most two uploads at once; the third is refused (429), and a place frees when one ends", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const a = asUploadingClient("addr:1", () => held);
  const b = asUploadingClient("addr:1", () => held);
  await expect(asUploadingClient("addr:1", async () => "third")).rejects.toMatchObject({ code: "rate_limited" });
  // Another client is not affected.
  expect(await asUploadingClient("addr:2", async () => "other")).toBe("other");
  release();
  await Promise.all([a, b]);
  expect(await asUploadingClient("addr:1", async () => "again")).toBe("again");
});

test("processing slots go to each waiting tenant in turn: one tenant's burst does not hold back another's upload", async () => {
  const order: string[] = [];
  const gates: (() => void)[] = [];
  const hold = (name: string) =>
    inUploadSlot(name.split("-")[0]!, async () => {
      order.push(name);
      await new Promise<void>((r) => gates.push(r));
    });
  // Tenant A fills every slot and queues three more; B then asks once.
  const running = Array.from({ length: UPLOAD_SLOTS }, (_, i) => hold(`a-${i}`));
  const queuedA = [hold("a-q1"), hold("a-q2"), hold("a-q3")];
  const queuedB = hold("b-1");
  await new Promise((r) => setTimeout(r, 10));
  expect(order).toEqual(["a-0", "a-1", "a-2", "a-3"]);
  // Two slots free: A's first waiting one, then B's (in turn), not A's second.
  gates.shift()!();
  gates.shift()!();
  await new Promise((r) => setTimeout(r, 10));
  expect(order.slice(4)).toEqual(["a-q1", "b-1"]);
  while (gates.length) {
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all([...running, ...queuedA, queuedB]);
  expect(order.slice(6)).toEqual(["a-q2", "a-q3"]);
});

test("decoded pixels stay within the process's budget: a third 50-megapixel image waits for one to finish", async () => {
  let inFlight = 0;
  let most = 0;
  const gates: (() => void)[] = [];
  const decode = () =>
    withinPixelBudget(50_000_000, async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((r) => gates.push(r));
      inFlight--;
    });
  const all = [decode(), decode(), decode()];
  await new Promise((r) => setTimeout(r, 10));
  expect(inFlight).toBe(2);
  gates.shift()!();
  await new Promise((r) => setTimeout(r, 10));
  expect(inFlight).toBe(2);
  while (gates.length) {
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(all);
  expect(most).toBe(2);
});

test("images waiting for the pixel budget are decoded in the order they came: a small one never passes a large one", async () => {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const decode = (name: string, pixels: number) =>
    withinPixelBudget(pixels, async () => {
      started.push(name);
      await new Promise<void>((r) => gates.set(name, r));
    });
  // 60 of the 100 megapixels in use; then a large image that does not fit, and two small ones that would.
  const first = decode("first", 60_000_000);
  await new Promise((r) => setTimeout(r, 5));
  const rest = [decode("large", 60_000_000), decode("small-1", 10_000_000), decode("small-2", 10_000_000)];
  await new Promise((r) => setTimeout(r, 10));
  expect(started).toEqual(["first"]);
  gates.get("first")!();
  await first;
  await new Promise((r) => setTimeout(r, 10));
  expect(started).toEqual(["first", "large", "small-1", "small-2"]);
  for (const name of ["large", "small-1", "small-2"]) gates.get(name)!();
  await Promise.all(rest);
});
