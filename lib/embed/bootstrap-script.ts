// The first page of every embedded component's frame (/embed/v1/frame): it holds nothing. It says
// hello to the page that framed it, takes the client secret from the loader's answer (a message,
// never the URL), exchanges it same-origin for the frame's session cookie, checks the browser kept
// the cookie, and moves on to the component's page. Every failure goes back as an `error` message
// to the host page's origin alone.

import { type FrameMessage, LOADER_SOURCE, type LoaderMessage, postToHost } from "./protocol";

const component = new URLSearchParams(location.search).get("component") ?? "";
let busy = false;

const say = (message: FrameMessage, origin: string) => postToHost(origin, message);

const failure = (code: string, message: string, origin: string) =>
  say({ type: "error", code: code as Extract<FrameMessage, { type: "error" }>["code"], message }, origin);

window.addEventListener("message", (event: MessageEvent) => {
  if (event.source !== window.parent || busy) return;
  const data = event.data as LoaderMessage | null;
  if (!data || data.source !== LOADER_SOURCE || data.type !== "init" || typeof data.clientSecret !== "string") return;
  busy = true;
  const origin = event.origin;
  void (async () => {
    try {
      const res = await fetch("/embed/v1/sessions", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          client_secret: data.clientSecret,
          component,
          parent_origin: origin,
          appearance: data.appearance ?? {},
          locale: data.locale,
        }),
      });
      const body = (await res.json().catch(() => null)) as {
        url?: string;
        error?: { code?: string; message?: string };
      } | null;
      if (!res.ok || !body?.url) {
        busy = false;
        failure(body?.error?.code ?? "load_failed", body?.error?.message ?? `HTTP ${res.status}`, origin);
        return;
      }
      // A browser that refuses cookies in frames (third-party cookies off, no partitioned cookies)
      // would show a signed-out page: said to the host page instead.
      const check = await fetch(`/embed/v1/session?component=${encodeURIComponent(component)}`, {
        credentials: "same-origin",
      });
      if (!check.ok) {
        failure(
          "cookies_blocked",
          "This browser blocks the cookies this frame needs (partitioned third-party cookies)",
          origin,
        );
        return;
      }
      location.replace(body.url);
    } catch (error) {
      busy = false;
      failure("load_failed", error instanceof Error ? error.message : String(error), origin);
    }
  })();
});

// Carries nothing: the loader answers it with the secret, to this origin only.
say({ type: "hello", component }, "*");
