import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";

import { actorOf, asActor } from "../../audit/actor";
import { ONBOARDING_COOKIE } from "../../auth/cookies";
import { verifyToken } from "../../auth/jwt";
import { readSessionToken } from "../../auth/onboarding-session";
import type { AccountType, Principal } from "../../auth/principal";
import { authenticateApiKey } from "../../domain/accounts/authenticate-api-key";
import { memberOfToken } from "../../domain/accounts/member-token";
import { merchantByPublishableKey } from "../../domain/tokens/create-token";
import { AppError, unauthenticated } from "../../errors";
import { must } from "../../must";
import type { AppEnv } from "../context";
import { getConnInfoAddress } from "./conn-info";
import { authFailureLimit } from "./rate-limit";

/**
 * Resolves who is calling from `Authorization` (Basic API key, or a Bearer JWT) or the onboarding
 * session cookie. Bad credentials are a 401 here; no credentials leave the principal empty and
 * each route's `allow(...)` decides.
 */
const failedAuth = authFailureLimit();

/**
 * Where a merchant's onboarding session (cookie or Bearer) is a credential: its session API, its
 * files, and the routing directory its bank step asks.
 */
const sessionPath = (path: string) =>
  path.startsWith("/v1/onboarding/") ||
  path === "/v1/files" ||
  path.startsWith("/v1/files/") ||
  path.startsWith("/v1/routing_numbers/");

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header("authorization");
  const cookie = header ? undefined : getCookie(c, ONBOARDING_COOKIE);
  if (!header && !(cookie && sessionPath(c.req.path))) return next();
  const address = getConnInfoAddress(c);
  try {
    if (header) c.set("principal", await fromAuthorization(c, header));
    else if (cookie) {
      rejectCrossSite(c);
      c.set("principal", await fromOnboardingToken(cookie));
    }
  } catch (error) {
    if (error instanceof AppError && error.type === "authentication_error")
      await failedAuth.fail(address, presentedKeyId(header));
    throw error;
  }
  // Every change this request makes is audited under its caller (lib/audit/actor.ts).
  const actor = actorOf(must(c.get("principal"), "the principal just authenticated"), {
    requestId: c.get("requestId"),
    clientAddress: c.get("clientAddress"),
    keyLast4: basicSecretLast4(header),
  });
  return actor ? asActor(actor, next) : next();
};

/** The last four characters of a Basic credential's secret: which of an account's keys made a change. */
function basicSecretLast4(header: string | undefined): string | undefined {
  if (!header || !header.toLowerCase().startsWith("basic ")) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon > 0 ? decoded.slice(colon + 1).slice(-4) : undefined;
}

/** The key id a credential names (an API key's account sid, a publishable key), to count its failures; none for tokens. */
function presentedKeyId(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon > 0 ? `sid:${decoded.slice(0, colon).slice(0, 64)}` : undefined;
  }
  return scheme === "bearer" && value.startsWith("pk_") ? `pk:${value.slice(0, 64)}` : undefined;
}

/**
 * A cookie is sent by the browser on its own, so a state-changing call authenticated by the cookie
 * must come from our own pages: SameSite=Lax already keeps cross-site POST/PATCH from carrying it,
 * and this refuses what the browser itself labels cross-site (Sec-Fetch-Site / Origin).
 */
function rejectCrossSite(c: Context<AppEnv>) {
  if (c.req.method === "GET" || c.req.method === "HEAD") return;
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  const host = c.req.header("host");
  const crossOrigin = origin !== undefined && origin !== "null" && host !== undefined && originHost(origin) !== host;
  if (site === "cross-site" || crossOrigin || origin === "null") {
    throw new AppError("cross_site_request", "Cross-site requests cannot use the onboarding session cookie");
  }
}

/** The host of an Origin header; a malformed one is no host at all (so: cross-site, refused). */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

async function fromAuthorization(c: Context<AppEnv>, header: string): Promise<Principal> {
  const space = header.indexOf(" ");
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (space > 0 && scheme === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      const found = await authenticateApiKey(c.get("db"), decoded.slice(0, colon), decoded.slice(colon + 1));
      if (found) {
        c.set("callerAccount", found.account);
        c.set("accountApiVersion", found.account.apiVersion);
        return {
          kind: "api_key",
          accountId: found.accountId,
          accountType: found.accountType,
          parentId: found.parentId,
          keyId: found.keyId,
          permissions: found.permissions,
        };
      }
    }
    throw unauthenticated("Invalid API key: check the account sid and secret key");
  }
  if (space > 0 && scheme === "bearer") {
    const onboarding = sessionPath(c.req.path) ? await fromOnboardingToken(value, false) : undefined;
    if (onboarding) return onboarding;
    if (value.startsWith("pk_")) {
      // A publishable key opens the tokenizer's one operation and nothing else.
      const merchant = c.req.path === "/v1/tokens" ? await merchantByPublishableKey(c.get("db"), value) : null;
      if (merchant) return { kind: "publishable", accountId: `pk:${merchant.id}`, merchantId: merchant.id };
      throw unauthenticated(
        "A publishable key only authenticates POST /v1/tokens, with the merchant's tokenizer_publishable_key",
      );
    }
    const claims = await verifyToken(value, "api");
    const member = claims ? await memberOfToken(c.get("db"), claims) : null;
    if (member) {
      // A sign-in whose second factor is still due (or not yet set up) opens nothing on the API.
      if (member.stage !== "complete")
        throw unauthenticated("This sign-in is not finished: give the second factor first, then use the new token");
      c.set("accountApiVersion", member.apiVersion);
      return {
        kind: "user",
        accountId: member.accountId,
        accountType: member.type,
        parentId: member.parentId,
        userId: member.userId,
        role: member.role,
        signedInAt: member.signedInAt,
        factor: member.factor,
      };
    }
    throw unauthenticated("Invalid or expired token");
  }
  throw unauthenticated("Unsupported Authorization scheme: use Basic or Bearer");
}

async function fromOnboardingToken(token: string, required = true): Promise<Principal | undefined> {
  const session = await readSessionToken(token);
  if (session) return { kind: "onboarding", ...session };
  if (required) throw unauthenticated("The onboarding session has expired: open your onboarding link again");
  return undefined;
}

type Allowed = { kinds: Principal["kind"][]; accountTypes?: AccountType[] };

/** What a guarded route's handler knows: there is a principal (the guard refused the rest). */
export type Authorized = AppEnv & { Variables: { principal: Principal } };

/** Route guard: which credentials an operation accepts (docs/reference.md section 2). */
export function allow<E extends Authorized = Authorized>(rule: Allowed): MiddlewareHandler<E> {
  return async (c, next) => {
    const principal = c.get("principal") as Principal | undefined;
    if (!principal) throw unauthenticated();
    if (!rule.kinds.includes(principal.kind)) {
      throw unauthenticated("These credentials cannot be used for this operation");
    }
    if (
      rule.accountTypes &&
      principal.kind !== "onboarding" &&
      principal.kind !== "publishable" &&
      !rule.accountTypes.includes(principal.accountType)
    ) {
      throw new AppError(
        "account_type_not_allowed",
        `This operation is not available to ${principal.accountType} accounts`,
      );
    }
    return next();
  };
}

export const isvOnly = allow({ kinds: ["api_key", "user"], accountTypes: ["isv"] });
