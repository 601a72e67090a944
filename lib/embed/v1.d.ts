// Types for /embed/v1.js, the embedded components' loader (docs/embedding.md).
// Copy this file into your project (or reference it) to type the elements, their properties and events.

export type OnbComponentName =
  "onboarding" | "payments" | "payouts" | "disputes" | "statements" | "notification_banner";

/** Why a component could not show itself. */
export type OnbLoadErrorCode =
  /** The client secret is unknown, already used, or past its hour (and no fetchClientSecret renewed it). */
  | "invalid_secret"
  /** The host page's origin is not in the ISV's settings.embed_allowed_origins. */
  | "origin_not_allowed"
  /** The account session does not enable this component. */
  | "component_not_enabled"
  /** The browser refused the frame (its CSP frame-ancestors: this origin is not allowed) or it never loaded. */
  | "frame_blocked"
  /** The browser blocks the frame's (partitioned, third-party) cookies. */
  | "cookies_blocked"
  /** fetchClientSecret threw or rejected. */
  | "fetch_client_secret_failed"
  | "load_failed";

export interface OnbEventDetail {
  component: OnbComponentName;
}
export interface OnbReadyDetail extends OnbEventDetail {
  /** The component's first page, painted. */
  path: string;
}
export interface OnbStepChangeDetail extends OnbEventDetail {
  /** The onboarding step now shown: business, owners, bank, product, sales, device, review, agreement, complete. */
  step: string;
}
export interface OnbSubmittedDetail extends OnbEventDetail {
  /** The merchant's lead_onboarding_status after the submission (COMPLETED, APPROVED, IN_PROGRESS, FAILED...). */
  status: string;
}
export interface OnbExitDetail extends OnbEventDetail {
  /** "done": the merchant finished with the component (its last page's button). */
  reason: string;
  status?: string;
}
export interface OnbLinkDetail extends OnbEventDetail {
  /** A link that leaves the component (support site, e-mail): the host page decides how to open it. */
  url: string;
}
export interface OnbLoadErrorDetail extends OnbEventDetail {
  code: OnbLoadErrorCode;
  message: string;
}

export interface OnbEventMap {
  "onb-ready": CustomEvent<OnbReadyDetail>;
  "onb-step-change": CustomEvent<OnbStepChangeDetail>;
  "onb-submitted": CustomEvent<OnbSubmittedDetail>;
  "onb-exit": CustomEvent<OnbExitDetail>;
  "onb-link": CustomEvent<OnbLinkDetail>;
  "onb-load-error": CustomEvent<OnbLoadErrorDetail>;
}

/**
 * Every component element. Attributes: `client-secret` (an account session's, used once) and
 * `locale` ("en" or "es"). Style it with CSS custom properties on the element:
 * --onb-color-primary, --onb-color-background, --onb-color-text (colours), --onb-font-family,
 * --onb-font-size-base (12-24px or 0.8-1.4rem), --onb-border-radius (0-99px, rem or em).
 */
export interface OnbComponentElement extends HTMLElement {
  readonly component: OnbComponentName;
  /** Called for a new client secret whenever the one in use has run out (or none was given). */
  fetchClientSecret?: () => Promise<string>;
  addEventListener<K extends keyof OnbEventMap>(
    type: K,
    listener: (this: OnbComponentElement, event: OnbEventMap[K]) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof OnbEventMap>(
    type: K,
    listener: (this: OnbComponentElement, event: OnbEventMap[K]) => void,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    "onb-onboarding": OnbComponentElement;
    "onb-payments": OnbComponentElement;
    "onb-payouts": OnbComponentElement;
    "onb-disputes": OnbComponentElement;
    "onb-statements": OnbComponentElement;
    "onb-notification-banner": OnbComponentElement;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends OnbEventMap {}
}
