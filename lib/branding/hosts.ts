import { and, isNotNull } from "drizzle-orm";

import { type AccountRow, accounts } from "../db/schema";
import { type Db, type DbOrTx } from "../db/types";
import { env } from "../env";

const baseUrl = new URL(env.PUBLIC_BASE_URL);
const baseHost = baseUrl.host.toLowerCase();
/** The card frame's own host, when it has one (TOKENIZER_ORIGIN). */
export const tokenizerHost = env.TOKENIZER_SEPARATE ? new URL(env.TOKENIZER_ORIGIN).host.toLowerCase() : null;
const loopback = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The service's own host (and, in sandbox, loopback names) serve every ISV's pages; the card frame's
 * own host never does (a page there would share the frame's origin and could read it).
 */
export function isServiceHost(host: string) {
  const h = host.toLowerCase();
  if (h === tokenizerHost) return false;
  return h === baseHost || (env.APP_ENV === "sandbox" && loopback.test(h));
}

let cache: { at: number; domains: Set<string> } | undefined;

/** A Host header without its port, lower-case: how custom domains are stored. */
export const bareHost = (host: string) => host.toLowerCase().replace(/:\d+$/, "");

async function customDomains(db: DbOrTx): Promise<Set<string>> {
  if (!cache || Date.now() - cache.at > 10_000) {
    // Only verified domains: asking for one is not owning it.
    const rows = await db
      .select({ domain: accounts.customDomain })
      .from(accounts)
      .where(and(isNotNull(accounts.customDomain), isNotNull(accounts.customDomainVerifiedAt)));
    cache = { at: Date.now(), domains: new Set(rows.flatMap((r) => (r.domain ? [r.domain] : []))) };
  }
  return cache.domains;
}

/** A custom domain changed in this process: read them again at the next check. */
export function forgetCustomDomains() {
  cache = undefined;
}

/** Whether the host is some ISV's verified custom domain. */
export async function isCustomDomain(db: DbOrTx, host: string): Promise<boolean> {
  return (await customDomains(db)).has(bareHost(host));
}

/**
 * What an ISV's custom domain serves: the merchant's and customers' pages (the wizard and portal,
 * the pay pages, the merchant's home) and their assets; never the platform's own pages (the
 * dashboard, its sign-in, the landing page).
 */
const customDomainPaths =
  /^\/(onboarding(\/|$|\?)|home(\/|$|\?)|pay\/|_next\/|icon\.svg|logo-default\.svg|favicon\.ico)/;
export const servedOnCustomDomain = (path: string) => customDomainPaths.test(path);

/**
 * Known hosts: the service's, and every ISV's custom domain (read from the database, cached for
 * 10 seconds). Pages on any other Host answer 404.
 */
export async function isKnownHost(db: Db, host: string | undefined, path = "/onboarding"): Promise<boolean> {
  if (!host) return false;
  if (isServiceHost(host)) return true;
  return servedOnCustomDomain(path) && isCustomDomain(db, host);
}

/**
 * Whether a page at `origin` may frame the card tokenizer: the service's own origin, this machine's
 * loopback in sandbox, or an ISV's verified custom domain over https. Never the tokenizer's own
 * origin when it has one.
 */
export async function isPayPageOrigin(db: DbOrTx, origin: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (env.TOKENIZER_SEPARATE && url.origin === env.TOKENIZER_ORIGIN)) return false;
  if (origin === baseUrl.origin) return true;
  if (env.APP_ENV === "sandbox" && url.protocol === "http:" && loopback.test(url.host)) return true;
  return url.protocol === "https:" && url.port === "" && isCustomDomain(db, url.hostname);
}

/** Whether a request on `host` may show this ISV's pages: the service's own host, or the ISV's own verified custom domain. */
export function servesIsvPages(
  host: string,
  isv: Pick<AccountRow, "customDomain" | "customDomainVerifiedAt">,
): boolean {
  if (isServiceHost(host)) return true;
  return Boolean(isv.customDomain && isv.customDomainVerifiedAt && bareHost(host) === isv.customDomain);
}

/** Where the ISV's hosted pages live: its custom domain once verified, else this service. */
export function hostedBaseUrl(isv: Pick<AccountRow, "customDomain" | "customDomainVerifiedAt">) {
  return isv.customDomain && isv.customDomainVerifiedAt ? `https://${isv.customDomain}` : env.PUBLIC_BASE_URL;
}

/** The DNS TXT record that proves an ISV controls its custom domain (POST /v1/account/custom_domain/verify). */
export function customDomainRecord(account: Pick<AccountRow, "customDomain" | "customDomainToken">) {
  if (!account.customDomain || !account.customDomainToken) return null;
  return {
    type: "TXT" as const,
    name: `_onboarding-verification.${account.customDomain}`,
    value: `onboarding-verification=${account.customDomainToken}`,
  };
}
