import { env } from "../env";
import { AppError } from "../errors";
import { limitStore } from "../limits";

// What keeps uploads (POST /v1/files, the home's document and dispute evidence forms) from starving
// the service (docs/reference.md, files):
// - a body must arrive within its deadline and at a minimum rate, or it is cut off (408): a slow
//   body holds a connection, never a processing slot;
// - one client address reads at most UPLOADS_PER_CLIENT bodies at once (429 past it);
// - the heavy work (recognising, decoding and re-encoding an image) runs in one of UPLOAD_SLOTS
//   slots per process, given in turn to each tenant that waits (one ISV's or merchant's burst
//   queues behind its own uploads, not everyone's), and decoded pixels have a budget per process;
// - each merchant has a daily number of uploads (429 `upload_quota_exceeded` past it).

export const UPLOAD_SLOTS = 4;
export const UPLOADS_PER_CLIENT = env.UPLOADS_PER_CLIENT;
/** Uploads per merchant and day, whatever comes of them (a refused duplicate counts too). */
export const UPLOADS_PER_MERCHANT_PER_DAY = env.UPLOADS_PER_MERCHANT_PER_DAY;
/** Pixels decoded at once per process: two 50-megapixel images, or many phone photos. */
export const PIXEL_BUDGET = 100_000_000;

export const uploadTiming = {
  /** The whole body within this long. */
  deadlineMs: 120_000,
  /** After this long, the body must have averaged at least minBytesPerSecond. */
  graceMs: 15_000,
  minBytesPerSecond: 8 * 1024,
};

/** Tests shorten the deadlines (a real slow client takes minutes to show). */
export function configureUploadTiming(timing: Partial<typeof uploadTiming>) {
  Object.assign(uploadTiming, timing);
}

const tooLarge = () => new AppError("file_too_large", "The file is larger than 10 MB");
const tooSlow = (why: string) =>
  new AppError("upload_timeout", `The upload was cut off: ${why}. Send the file again on a steadier connection`);

/**
 * Reads a request's body into memory, at most `maxBytes` (413 past it), within the upload's deadline
 * and minimum rate (408 `upload_timeout` otherwise; the stream is cancelled).
 */
export async function readUploadBody(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const started = Date.now();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    const check = () => {
      const elapsed = Date.now() - started;
      if (elapsed >= uploadTiming.deadlineMs)
        return reject(tooSlow(`it took longer than ${Math.round(uploadTiming.deadlineMs / 1000)} s`));
      if (elapsed >= uploadTiming.graceMs && size / (elapsed / 1000) < uploadTiming.minBytesPerSecond)
        return reject(tooSlow("it arrived too slowly"));
      timer = setTimeout(check, Math.min(1000, uploadTiming.graceMs, uploadTiming.deadlineMs));
    };
    timer = setTimeout(check, Math.min(1000, uploadTiming.graceMs, uploadTiming.deadlineMs));
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
    return Buffer.concat(chunks, size);
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const readingPerClient = new Map<string, number>();

/** Runs `work` (reading an upload) counted against `client`: 429 when it already has UPLOADS_PER_CLIENT under way. */
export async function asUploadingClient<T>(client: string, work: () => Promise<T>): Promise<T> {
  const running = readingPerClient.get(client) ?? 0;
  if (running >= UPLOADS_PER_CLIENT)
    throw new AppError("rate_limited", `At most ${UPLOADS_PER_CLIENT} uploads at once: wait for one to finish`, {
      retryAfterSeconds: 1,
    });
  readingPerClient.set(client, running + 1);
  try {
    return await work();
  } finally {
    const left = (readingPerClient.get(client) ?? 1) - 1;
    if (left > 0) readingPerClient.set(client, left);
    else readingPerClient.delete(client);
  }
}

// The processing slots: free ones are taken at once; otherwise each tenant waits in its own line
// and a freed slot goes to the next tenant in turn (round robin), not to the oldest request.
let slotsInUse = 0;
const waiting = new Map<string, (() => void)[]>();
const turn: string[] = [];

function releaseSlot() {
  const tenant = turn.shift();
  if (tenant === undefined) {
    slotsInUse--;
    return;
  }
  // A tenant is in `turn` exactly while its line has someone waiting.
  const line = waiting.get(tenant) ?? [];
  const next = line.shift();
  if (line.length) turn.push(tenant);
  else waiting.delete(tenant);
  next?.();
}

/** Runs the heavy part of an upload in one of the process's UPLOAD_SLOTS, fairly among tenants. */
export async function inUploadSlot<T>(tenant: string, work: () => Promise<T>): Promise<T> {
  if (slotsInUse < UPLOAD_SLOTS) slotsInUse++;
  else
    await new Promise<void>((resolve) => {
      const line = waiting.get(tenant);
      if (line) line.push(resolve);
      else {
        waiting.set(tenant, [resolve]);
        turn.push(tenant);
      }
    });
  try {
    return await work();
  } finally {
    releaseSlot();
  }
}

/** What waits for a slot now, per tenant (for tests and metrics). */
export const uploadSlotState = () => ({ inUse: slotsInUse, waiting: [...waiting].map(([t, l]) => [t, l.length]) });

let pixelsInUse = 0;
const pixelWaiters: { pixels: number; resolve: () => void }[] = [];

/** Decodes within the process's pixel budget: an image waits until its pixels fit (each alone always fits). */
export async function withinPixelBudget<T>(pixels: number, work: () => Promise<T>): Promise<T> {
  const need = Math.min(pixels, PIXEL_BUDGET);
  if (pixelsInUse + need > PIXEL_BUDGET || pixelWaiters.length)
    await new Promise<void>((resolve) => pixelWaiters.push({ pixels: need, resolve }));
  else pixelsInUse += need;
  try {
    return await work();
  } finally {
    pixelsInUse -= need;
    for (let next = pixelWaiters[0]; next && pixelsInUse + next.pixels <= PIXEL_BUDGET; next = pixelWaiters[0]) {
      pixelWaiters.shift();
      pixelsInUse += next.pixels;
      next.resolve();
    }
  }
}

/** One upload of `merchantId` counted against its day (429 `upload_quota_exceeded` past it). */
export async function countUpload(merchantId: string) {
  const wait = await limitStore().limit("uploads-merchant-day", UPLOADS_PER_MERCHANT_PER_DAY, 86_400).hit(merchantId);
  if (wait !== null)
    throw new AppError(
      "upload_quota_exceeded",
      `This merchant sent ${UPLOADS_PER_MERCHANT_PER_DAY} files in the last day: try again later`,
      { retryAfterSeconds: wait },
    );
}
