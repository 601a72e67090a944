import type { IncomingMessage } from "node:http";

import parseForwarded from "forwarded-parse";
import proxyaddr from "proxy-addr";

import { env } from "../env";

/** Whether the hop at `index` (0: the socket's peer) is a proxy of ours, whose X-Forwarded-For entry is believed. */
export type TrustProxy = (address: string, index: number) => boolean;

/**
 * TRUST_PROXY, compiled: unset, empty or `0` trusts nobody (the socket's address is the client's);
 * a number trusts that many hops (`1`: the load balancer in front); otherwise a comma-separated
 * list of addresses, CIDR ranges or proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 * A client's own X-Forwarded-For entries are never believed: only what trusted hops appended.
 */
const trustNone: TrustProxy = () => false;

export function compileTrustProxy(setting: string | undefined): TrustProxy {
  const value = (setting ?? "").trim();
  if (value === "" || value === "0" || value === "false") return trustNone;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, index) => index < hops;
  }
  return proxyaddr.compile(
    value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean),
  );
}

const configured = compileTrustProxy(env.TRUST_PROXY);

/** Which header the trusted proxies write the client's address in (FORWARDED_HEADER). */
export type ForwardedHeader = "x-forwarded-for" | "forwarded";

/**
 * The `for=` addresses of an RFC 7239 `Forwarded` header, nearest client first, as X-Forwarded-For
 * lists them: `"[2001:db8::17]:4711"` becomes `2001:db8::17`, `192.0.2.60:8080` becomes
 * `192.0.2.60`; an obfuscated or `unknown` node stays as written (never an address, so never trusted).
 * A malformed header is a client's, not a proxy's: null (the socket's peer stands).
 */
export function forwardedFor(header: string): string[] | null {
  let elements: Record<string, string>[];
  try {
    elements = parseForwarded(header);
  } catch {
    return null;
  }
  return elements
    .map((e) => e.for)
    .filter((node): node is string => typeof node === "string")
    .map((node) => {
      const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
      if (v6?.[1]) return v6[1];
      const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node);
      return v4?.[1] ?? node;
    });
}

/**
 * The client's address: the socket's peer, or (behind trusted proxies) the nearest address they
 * forwarded, read from X-Forwarded-For (the default) or from RFC 7239's `Forwarded` when the proxies
 * write that one (FORWARDED_HEADER=forwarded). Only the configured header is read: a proxy that
 * appends to one passes the other through untouched, as the client wrote it.
 */
export function clientAddress(
  req: IncomingMessage,
  trust: TrustProxy = configured,
  header: ForwardedHeader = env.FORWARDED_HEADER,
): string {
  const peer = req.socket?.remoteAddress;
  if (!peer) return "unknown";
  // Trusting no proxy (the default) needs no header parsing: the peer is the client.
  if (trust === trustNone) return peer;
  if (header === "forwarded") {
    const raw = req.headers.forwarded;
    const list = raw ? forwardedFor(Array.isArray(raw) ? raw.join(", ") : raw) : [];
    // proxy-addr walks the hops (the same trust rule for both headers) over the list it is given.
    const shim = { socket: req.socket, headers: { "x-forwarded-for": (list ?? []).join(", ") } };
    return proxyaddr(shim as unknown as IncomingMessage, trust) || "unknown";
  }
  return proxyaddr(req, trust) || "unknown";
}
