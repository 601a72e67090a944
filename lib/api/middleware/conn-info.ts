import type { Context } from "hono";

/** The client's address from the Node socket (no proxy headers are trusted). */
export function getConnInfoAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}
