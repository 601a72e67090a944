import http from "node:http";
import https from "node:https";
import net from "node:net";
import { isPublicAddress, publicOnlyLookup } from "./address-guard";

export type SendResult = { statusCode: number | null; durationMs: number; excerpt: string | null; error: string | null };

export const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;

/**
 * One POST to a receiver: 10 s for the whole answer, redirects are not followed (a 3xx is a
 * failure), and in production the connection may only reach public addresses.
 */
export function sendWebhook(url: string, body: string, headers: Record<string, string>, options: { publicOnly: boolean }): Promise<SendResult> {
  const started = performance.now();
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  // An address literal never goes through `lookup` (Node connects to it directly): checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (options.publicOnly && net.isIP(literal) && !isPublicAddress(literal))
    return Promise.resolve({ statusCode: null, durationMs: 0, excerpt: null, error: `${literal} is a private or reserved address` });
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "onboarding-platform-webhooks/1" },
        ...(options.publicOnly ? { lookup: publicOnlyLookup } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on("end", () =>
          done({ statusCode: res.statusCode ?? null, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"), error: null }),
        );
        res.on("error", (e) => done({ statusCode: res.statusCode ?? null, excerpt: null, error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`));
    }, DELIVERY_TIMEOUT_MS);
    req.on("error", (e) => done({ statusCode: null, excerpt: null, error: e.message }));
    req.end(body);
  });
}
