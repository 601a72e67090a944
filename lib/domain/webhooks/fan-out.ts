import { sql } from "drizzle-orm";

/**
 * What a delivery holds while it is sent (lib/workers/pools.ts caps each): its account and its
 * destination host, so a slow endpoint or a busy ISV delays only its own deliveries.
 */
export function deliveryKeys(accountId: string, url: string) {
  return [`account:${accountId}`, `host:${hostOf(url)}`];
}

/** The URL's authority without credentials, lower-cased, as written (the same in SQL below). */
export const hostOf = (url: string) =>
  (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]+)/i.exec(url)?.[1] ?? url).toLowerCase();
/** `hostOf(targets.url)` in SQL, for the deliveries written with their events (lib/domain/events/record-event.ts). */
export const HOST_KEY_SQL = sql`'host:' || lower(coalesce(substring(targets.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)'), targets.url))`;
