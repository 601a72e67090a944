// /embed/v1.js: the embedded components' loader (docs/embedding.md). One dependency-free script that
// defines <onb-onboarding>, <onb-payments>, <onb-payouts>, <onb-disputes>, <onb-statements> and
// <onb-notification-banner>. Each renders its component in a frame of this service, sized to its
// content, and turns the frame's messages into DOM events. The client secret reaches the frame by
// postMessage to this service's origin only (never in a URL); messages are taken only from that
// origin and that frame. Types: /embed/v1.d.ts.

import { appearanceVariables } from "./appearance";
import {
  elementOf,
  eventOf,
  FRAME_SOURCE,
  frameTitleOf,
  LOADER_SOURCE,
  type LoaderMessage,
  type SentFrameMessage,
  SESSION_EXPIRED,
} from "./protocol";

const script = document.currentScript as HTMLScriptElement | null;
const serviceOrigin = new URL(script?.src ?? location.href).origin;

/** Element name → component (the protocol's table, read the other way). */
const elements: Record<string, string> = Object.fromEntries(Object.entries(elementOf).map(([c, e]) => [e, c]));
const titles: Record<string, string> = frameTitleOf;
// A frame that loaded without saying hello was refused by the browser (its CSP: an origin not in
// the ISV's list) or never reached the service.
const HELLO_GRACE_MS = 1500;

class OnbComponent extends HTMLElement {
  static get observedAttributes() {
    return ["client-secret", "locale"];
  }

  #fetchClientSecret?: () => Promise<string>;
  #frame?: HTMLIFrameElement;
  // Every secret this element sent (single use: the attribute's is never sent twice, even after a renewal).
  #used = new Set<string>();
  #hello = false;
  #ready = false;
  #submitted = false;
  #renewing = false;
  #listening = false;

  /** Called for a new client secret whenever the one in use has run out (or none was given). */
  get fetchClientSecret() {
    return this.#fetchClientSecret;
  }
  set fetchClientSecret(fn: (() => Promise<string>) | undefined) {
    this.#fetchClientSecret = fn;
    if (this.isConnected && !this.#frame) void this.#mount();
  }

  get component() {
    return elements[this.localName] ?? "";
  }

  connectedCallback() {
    // A property set before this script defined the element (an own property of the plain element
    // then) is taken over by the accessor now.
    if (Object.prototype.hasOwnProperty.call(this, "fetchClientSecret")) {
      const given = (this as { fetchClientSecret?: () => Promise<string> }).fetchClientSecret;
      delete (this as { fetchClientSecret?: unknown }).fetchClientSecret;
      this.#fetchClientSecret = given;
    }
    if (!this.#listening) {
      window.addEventListener("message", this.#onMessage);
      this.#listening = true;
    }
    if (!this.#frame) void this.#mount();
  }

  disconnectedCallback() {
    window.removeEventListener("message", this.#onMessage);
    this.#listening = false;
    this.#frame?.remove();
    this.#frame = undefined;
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null) {
    if (before === after || !this.#frame) return;
    // A new secret starts the component again; so does a new language, when a new secret can be had.
    if (name === "client-secret" ? !(after && this.#used.has(after)) : Boolean(this.#fetchClientSecret))
      this.#restart();
  }

  #restart() {
    this.#frame?.remove();
    this.#frame = undefined;
    void this.#mount();
  }

  async #secret(): Promise<string | null> {
    const given = this.getAttribute("client-secret");
    if (given && !this.#used.has(given)) return given;
    if (this.#fetchClientSecret) {
      try {
        return await this.#fetchClientSecret();
      } catch (error) {
        this.#fail("fetch_client_secret_failed", error instanceof Error ? error.message : String(error));
        return null;
      }
    }
    return null;
  }

  #pending?: string;

  async #mount() {
    if (this.#frame || !this.component) return;
    const secret = await this.#secret();
    if (!secret) {
      // Nothing yet: mounted again when a secret or fetchClientSecret arrives.
      if (this.getAttribute("client-secret")) this.#fail("invalid_secret", "This client secret was already used");
      return;
    }
    if (this.#frame) return;
    this.#pending = secret;
    const session = /^(as_[0-9A-Za-z]+)_secret_/.exec(secret)?.[1] ?? "";
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    if (!root.querySelector("style")) {
      const style = document.createElement("style");
      style.textContent = ":host{display:block}iframe{display:block;width:100%;border:0;height:120px}";
      root.append(style);
    }
    const frame = document.createElement("iframe");
    frame.title = titles[this.component] ?? this.component;
    frame.src = `${serviceOrigin}/embed/v1/frame?${new URLSearchParams({ component: this.component, session })}`;
    this.#hello = false;
    this.#ready = false;
    frame.addEventListener("load", () => {
      setTimeout(() => {
        if (this.#frame === frame && !this.#hello)
          this.#fail(
            "frame_blocked",
            "The component's frame did not load: is this page's origin in the ISV's allowed origins?",
          );
      }, HELLO_GRACE_MS);
    });
    this.#frame = frame;
    root.append(frame);
  }

  #appearance() {
    const style = getComputedStyle(this);
    const out: Record<string, string> = {};
    for (const [name, key] of Object.entries(appearanceVariables)) {
      const value = style.getPropertyValue(name).trim();
      if (value) out[key] = value;
    }
    return out;
  }

  #emit(type: string, detail: Record<string, unknown>) {
    this.dispatchEvent(
      new CustomEvent(type, { detail: { component: this.component, ...detail }, bubbles: true, composed: true }),
    );
  }

  #fail(code: string, message: string) {
    // Nothing of the component showed: no empty or broken frame is left on the host page.
    if (!this.#ready && this.#frame) this.#frame.style.display = "none";
    this.#emit(eventOf.error, { code, message });
  }

  #send(secret: string) {
    this.#used.add(secret);
    const init: LoaderMessage = {
      source: LOADER_SOURCE,
      type: "init",
      clientSecret: secret,
      appearance: this.#appearance(),
      locale: this.getAttribute("locale") ?? undefined,
    };
    this.#frame?.contentWindow?.postMessage(init, serviceOrigin);
  }

  #onMessage = (event: MessageEvent) => {
    if (event.origin !== serviceOrigin || !this.#frame || event.source !== this.#frame.contentWindow) return;
    // From the service's own frame, but read as untrusted all the same: each field checked for its type.
    const data = event.data as SentFrameMessage | null;
    if (!data || data.source !== FRAME_SOURCE) return;
    switch (data.type) {
      case "hello":
        this.#hello = true;
        if (this.#pending) {
          this.#send(this.#pending);
          this.#pending = undefined;
        } else
          void this.#secret().then((secret) =>
            secret ? this.#send(secret) : this.#fail("invalid_secret", "No client secret"),
          );
        return;
      case "resize":
        // 0: a component with nothing to show (an empty notification banner) takes no space.
        if (typeof data.height === "number" && data.height >= 0)
          this.#frame.style.height = `${Math.ceil(data.height)}px`;
        return;
      case "ready":
        this.#hello = true;
        this.#renewing = false;
        if (!this.#ready) {
          this.#ready = true;
          this.#emit(eventOf.ready, { path: data.path });
        }
        return;
      case "step-change":
        this.#emit(eventOf["step-change"], { step: data.step });
        return;
      case "submitted":
        if (!this.#submitted) {
          this.#submitted = true;
          this.#emit(eventOf.submitted, { status: data.status });
        }
        return;
      case "exit":
        this.#emit(eventOf.exit, { reason: data.reason, status: data.status });
        return;
      case "link":
        this.#emit(eventOf.link, { url: data.url });
        return;
      case "error": {
        const code = String(data.code ?? "load_failed");
        // A secret that ran out (or a frame session past its hour): a new one when the page can make it,
        // once until the component shows again (a new secret that fails too is an error, not a loop).
        if ((code === "invalid_secret" || code === SESSION_EXPIRED) && this.#fetchClientSecret && !this.#renewing) {
          this.#renewing = true;
          if (code === SESSION_EXPIRED) this.#restart();
          else void this.#secret().then((secret) => (secret ? this.#send(secret) : undefined));
          return;
        }
        this.#fail(code, String(data.message ?? code));
        return;
      }
    }
  };
}

for (const name of Object.keys(elements)) {
  if (!customElements.get(name)) customElements.define(name, class extends OnbComponent {});
}
