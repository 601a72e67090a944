import { verifyToken } from "../auth/jwt";
import type { EmbedComponent } from "../schemas/account-sessions";

/**
 * The frame session's cookie of one component (its JWT, lib/domain/embed/account-sessions.ts). One
 * per component: the frames of one host page share its partition, so two components on one page
 * (onboarding beside payments) must not overwrite each other's session.
 */
export const embedCookie = (component: EmbedComponent) => `onb_embed_${component}`;
export const EMBED_COOKIE_PREFIX = "onb_embed_";
/** The request header the proxy names the page's component in (for the frame's shell). */
export const EMBED_COMPONENT_HEADER = "x-embed-component";
/** The frame session's JWT audience. */
export const FRAME_AUDIENCE = "embed";
/** How long the frame's cookie lives: past its session's hour, so that the frame can say it ended. */
export const FRAME_COOKIE_MAX_AGE = 12 * 3600;

/**
 * The host page's origin a frame cookie names (its signature checked, its hour possibly past: the
 * page that says "expired" is framed by it too), or null. The pages' CSP `frame-ancestors` is this
 * origin alone.
 */
export async function frameOriginOf(token: string | undefined) {
  const claims = token ? await verifyToken(token, FRAME_AUDIENCE, FRAME_COOKIE_MAX_AGE) : null;
  return claims && typeof claims.origin === "string" ? claims.origin : null;
}

// Where each embedded component's frame goes once its session is open, and who may frame it.

const paths: Record<EmbedComponent, string> = {
  onboarding: "/embed/v1/onboarding",
  payments: "/home/payments",
  payouts: "/home/payouts",
  disputes: "/home/disputes",
  statements: "/home/statements",
  notification_banner: "/home/banner",
};

export const framePath = (component: EmbedComponent) => paths[component];

/** Which component a page belongs to inside a frame (null: a page of none). */
export function componentOfPath(pathname: string): EmbedComponent | null {
  if (pathname === "/onboarding" || pathname.startsWith("/onboarding/")) return "onboarding";
  if (pathname.startsWith("/home/payments") || pathname === "/home/recent") return "payments";
  if (pathname === "/home/payouts" || pathname.startsWith("/home/settlements/")) return "payouts";
  if (pathname.startsWith("/home/disputes") || pathname.startsWith("/home/files/")) return "disputes";
  if (pathname.startsWith("/home/statements")) return "statements";
  if (pathname === "/home/banner") return "notification_banner";
  return null;
}
