import { randomBytes } from "node:crypto";

import { sendWebhook } from "../lib/webhooks/send";
import { signedHeaders } from "../lib/webhooks/sign";

export type ListenOptions = {
  apiUrl: string;
  accountSid: string;
  secretKey: string;
  forwardTo: string;
  /** Stop after forwarding this many events (scripts and tests); default: run until interrupted. */
  maxEvents?: number;
  pollMs?: number;
  log?: (line: string) => void;
};

/**
 * `npm run cli -- webhooks listen --forward-to <url>`: follows a sandbox account's events through
 * the public API (GET /v1/events) and forwards each one to a local URL, signed like a real
 * delivery with a signing secret made for this session.
 */
export async function listen(options: ListenOptions, signal?: AbortSignal) {
  const out = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (options.secretKey.startsWith("sk_live_"))
    throw new Error("webhooks listen is for sandbox accounts only (the secret key is sk_live_)");
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.secretKey}`).toString("base64")}`;
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const get = async (path: string) => {
    const res = await fetch(options.apiUrl.replace(/\/$/, "") + path, { headers: { authorization: auth } });
    const body = await res.json();
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${body?.error?.message ?? ""}`);
    return body as { data: { id: string; type: string }[]; has_more: boolean };
  };
  // Start from the newest event: only what happens from now on is forwarded.
  let cursor = (await get("/v1/events?limit=1")).data[0]?.id;
  out(`Ready. Forwarding events to ${options.forwardTo}`);
  out(`Your webhook signing secret for this session is ${secret}`);
  let forwarded = 0;
  while (!signal?.aborted) {
    const page = await get(`/v1/events?limit=100${cursor ? `&ending_before=${cursor}` : ""}`);
    // Newest first in the list; forward oldest first.
    for (const event of [...page.data].reverse()) {
      const body = JSON.stringify(event);
      const result = await sendWebhook(options.forwardTo, body, signedHeaders(secret, event.id, body), {
        publicOnly: false,
      });
      out(`${new Date().toISOString()}  ${event.type.padEnd(32)} ${event.id}  → ${result.statusCode ?? result.error}`);
      cursor = event.id;
      if (options.maxEvents && ++forwarded >= options.maxEvents) return { secret, forwarded };
    }
    if (!page.has_more) await new Promise((r) => setTimeout(r, options.pollMs ?? 1000));
  }
  return { secret, forwarded };
}
