import { env } from "../env";

// Every cookie the service sets, in one place: its name and its options. A first-party cookie is
// httpOnly and `SameSite=Lax` (a cross-site POST never carries it: the pages' CSRF defence, with the
// server actions' origin check), `Secure` whenever the service is served over HTTPS. A cookie set
// inside an embedded component's frame (a third-party context) is `SameSite=None; Secure;
// Partitioned`: kept in the host page's partition (CHIPS), never sent anywhere else.

/** The ISV dashboard's sign-in (a user JWT; the same token works as a Bearer token). */
export const DASHBOARD_COOKIE = "dashboard_session";
/** The merchant home's 12-hour session (lib/domain/home/sessions.ts). */
export const HOME_COOKIE = "merchant_session";
/** The merchant's onboarding session (lib/auth/onboarding-session.ts). */
export const ONBOARDING_COOKIE = "onboarding_session";

/** The one rule for `Secure` on first-party cookies: production, or any deployment served over HTTPS. */
export const secureCookies = () => env.APP_ENV === "production" || env.PUBLIC_BASE_URL.startsWith("https:");

export type CookieOptions = {
  httpOnly: boolean;
  sameSite: "lax" | "none";
  secure: boolean;
  partitioned?: boolean;
  path: string;
  maxAge?: number;
};

/** A first-party session cookie that lives `maxAge` seconds. */
export const firstPartyCookie = (maxAge: number): CookieOptions => ({
  httpOnly: true,
  sameSite: "lax",
  secure: secureCookies(),
  path: "/",
  maxAge,
});

/** A cookie set inside an embedded component's frame (readable only there, over HTTPS or localhost). */
export const frameCookie = (maxAge: number, { httpOnly = true } = {}): CookieOptions => ({
  httpOnly,
  sameSite: "none",
  secure: true,
  partitioned: true,
  path: "/",
  maxAge,
});

/** The `Set-Cookie` header's value, for a handler that answers a bare `Response`. */
export function setCookieHeader(name: string, value: string, options: CookieOptions) {
  return [
    `${name}=${value}`,
    `Path=${options.path}`,
    ...(options.maxAge !== undefined ? [`Max-Age=${options.maxAge}`] : []),
    ...(options.httpOnly ? ["HttpOnly"] : []),
    `SameSite=${options.sameSite === "lax" ? "Lax" : "None"}`,
    ...(options.secure ? ["Secure"] : []),
    ...(options.partitioned ? ["Partitioned"] : []),
  ].join("; ");
}
