// The embedded components' protocol, one module for both sides (docs/embedding.md): the loader on
// the ISV's page (./loader.ts), the frame's first page (./bootstrap-script.ts), the frame's pages
// (components/embed/embed-bridge.tsx) and "not available here" (app/(home)/home/unavailable). Plain
// data and types: the loader bundles it, so nothing here imports a library. The public types in
// ./v1.d.ts are held to it by ./protocol.test.ts.

import type { EmbedComponent } from "../schemas/account-sessions";

/** Each component's custom element on the host page. */
export const elementOf = {
  onboarding: "onb-onboarding",
  payments: "onb-payments",
  payouts: "onb-payouts",
  disputes: "onb-disputes",
  statements: "onb-statements",
  notification_banner: "onb-notification-banner",
} as const satisfies Record<EmbedComponent, `onb-${string}`>;

/** The frame's title (what a screen reader announces for it). */
export const frameTitleOf: Record<EmbedComponent, string> = {
  onboarding: "Onboarding",
  payments: "Payments",
  payouts: "Payouts",
  disputes: "Disputes",
  statements: "Statements",
  notification_banner: "Notifications",
};

/** Why a component could not show itself: the `onb-load-error` codes (v1.d.ts OnbLoadErrorCode). */
export const loadErrorCodes = [
  "invalid_secret",
  "origin_not_allowed",
  "component_not_enabled",
  "frame_blocked",
  "cookies_blocked",
  "fetch_client_secret_failed",
  "load_failed",
] as const;
export type LoadErrorCode = (typeof loadErrorCodes)[number];
/** A frame's error the loader acts on itself: its session ran out, it asks for a new client secret. */
export const SESSION_EXPIRED = "session_expired";

export const LOADER_SOURCE = "onb-loader";
export const FRAME_SOURCE = "onb-frame";

/** Loader → frame: the client secret, to the service's origin only (never in a URL). */
export type LoaderMessage = {
  source: typeof LOADER_SOURCE;
  type: "init";
  clientSecret: string;
  appearance?: unknown;
  locale?: string;
};

/** Frame → loader (to the host page's origin only), each turned into the element's DOM event. */
export type FrameMessage =
  | { type: "hello"; component: string }
  | { type: "ready"; path: string }
  | { type: "step-change"; step: string }
  | { type: "resize"; height: number }
  | { type: "submitted"; status: string }
  | { type: "exit"; reason: string; status?: string }
  | { type: "link"; url: string }
  | { type: "error"; code: LoadErrorCode | typeof SESSION_EXPIRED; message: string };

/** A frame message as sent (its source marks it as ours). */
export type SentFrameMessage = FrameMessage & { source: typeof FRAME_SOURCE };

/** The DOM event each frame message becomes on the element (hello and resize stay inside the loader). */
export const eventOf = {
  ready: "onb-ready",
  "step-change": "onb-step-change",
  submitted: "onb-submitted",
  exit: "onb-exit",
  link: "onb-link",
  error: "onb-load-error",
} as const satisfies Partial<Record<FrameMessage["type"], `onb-${string}`>>;

/** A frame's message to its host page, at `origin` alone. */
export function postToHost(origin: string, message: FrameMessage) {
  if (window.parent !== window) window.parent.postMessage({ source: FRAME_SOURCE, ...message }, origin);
}
