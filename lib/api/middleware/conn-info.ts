import type { IncomingMessage } from "node:http";

import type { Context } from "hono";

import { clientAddress, type TrustProxy } from "../../net/client-address";

/** The Node request under a Hono context (@hono/node-server), if any. */
const incomingOf = (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/** The client's address as the request context worked it out (lib/net/client-address.ts), once per request. */
export function getConnInfoAddress(c: Context): string {
  return (c.get("clientAddress") as string | undefined) ?? addressOf(c);
}

/** The client's address: the socket's peer, or behind trusted proxies the address they forwarded. */
export function addressOf(c: Context, trust?: TrustProxy): string {
  const incoming = incomingOf(c);
  return incoming ? clientAddress(incoming, trust) : "unknown";
}
