import http from "node:http";
import https from "node:https";
import net from "node:net";

import { guardedLookup, isLoopbackAddress, isPublicAddress } from "./address-guard";

// A receiver's answer is stored as text: control characters (NUL above all, which PostgreSQL text
// cannot hold) become U+FFFD; tab and line breaks stay.
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "\uFFFD");

export type SendResult = {
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
};

export const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;

// Connections are kept open between deliveries to one receiver (most send many): no TCP or TLS
// handshake per event. An idle connection is closed after 4 s, before common servers' own 5 s.
const agentOptions = {
  keepAlive: true,
  maxSockets: 64,
  maxFreeSockets: 16,
  timeout: 4000,
  scheduling: "lifo" as const,
};
const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };

/**
 * One POST to a receiver: 10 s for the whole answer, redirects are not followed (a 3xx is a
 * failure). In production the connection may only reach public addresses; in sandbox
 * (`allowLoopback`) also this machine's loopback, never the rest of the private network (whose
 * answers would otherwise be shown to the ISV in its delivery attempts).
 */
type Reach = {
  publicOnly: boolean;
  allowLoopback?: boolean;
  /** With allowLoopback: whether a loopback answer's body may be kept (else its status code only). */
  loopbackBodies?: boolean;
};
const lookups = { strict: guardedLookup({ allowLoopback: false }), loopback: guardedLookup({ allowLoopback: true }) };

export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: Reach,
): Promise<SendResult> {
  const first = await sendOnce(url, body, headers, options);
  // A kept-alive connection the receiver had just closed: the request never reached it; once more.
  return first.staleSocket ? sendOnce(url, body, headers, options) : first;
}

function sendOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: Reach,
): Promise<SendResult & { staleSocket?: boolean }> {
  const started = performance.now();
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  // An address literal never goes through `lookup` (Node connects to it directly): checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, "");
  if (
    options.publicOnly &&
    net.isIP(literal) &&
    !isPublicAddress(literal) &&
    !(options.allowLoopback && isLoopbackAddress(literal))
  )
    return Promise.resolve({
      statusCode: null,
      durationMs: 0,
      excerpt: null,
      error: `${literal} is a private or reserved address`,
    });
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const done = (r: Omit<SendResult, "durationMs"> & { staleSocket?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: Math.round(performance.now() - started) });
    };
    const req = client.request(
      target,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "onboarding-platform-webhooks/1",
        },
        ...(options.publicOnly ? { lookup: options.allowLoopback ? lookups.loopback : lookups.strict } : {}),
        agent: agents[target.protocol as "http:" | "https:"],
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        // A sandbox reaching this machine's loopback: its answer is not the ISV's to read (unless allowed).
        const hidden = options.loopbackBodies === false && isLoopbackAddress(res.socket?.remoteAddress ?? "");
        res.on("end", () =>
          done({
            statusCode: res.statusCode ?? null,
            excerpt: hidden ? null : printable(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8")),
            error: null,
          }),
        );
        res.on("error", (e) => done({ statusCode: res.statusCode ?? null, excerpt: null, error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${DELIVERY_TIMEOUT_MS / 1000} s`));
    }, DELIVERY_TIMEOUT_MS);
    req.on("error", (e: NodeJS.ErrnoException) =>
      done({
        statusCode: null,
        excerpt: null,
        error: e.message,
        staleSocket: req.reusedSocket && e.code === "ECONNRESET" && !answered,
      }),
    );
    req.end(body);
  });
}
