import type { IncomingMessage } from "node:http";

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

/** The client's address: the socket's peer, or (behind trusted proxies) the nearest address they forwarded. */
export function clientAddress(req: IncomingMessage, trust: TrustProxy = configured): string {
  const peer = req.socket?.remoteAddress;
  if (!peer) return "unknown";
  // Trusting no proxy (the default) needs no header parsing: the peer is the client.
  if (trust === trustNone) return peer;
  return proxyaddr(req, trust) || "unknown";
}
