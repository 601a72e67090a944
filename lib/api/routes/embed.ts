import { readFileSync } from "node:fs";
import path from "node:path";

import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { z } from "zod";

import { frameCookie, ONBOARDING_COOKIE } from "../../auth/cookies";
import { sessionCookieOptions } from "../../auth/onboarding-session";
import { bundleScript } from "../../browser-scripts";
import { settingsOf } from "../../domain/accounts/isv-facts";
import { accountSessionIsv, exchangeClientSecret, frameSession } from "../../domain/embed/account-sessions";
import { embeddedOnboarding } from "../../domain/embed/onboarding";
import { embedCookie, FRAME_COOKIE_MAX_AGE, framePath } from "../../embed/frame";
import { AppError } from "../../errors";
import { isLocale, LOCALE_COOKIE } from "../../i18n/locales";
import { embedFrameCsp } from "../../net/csp";
import { embedComponents } from "../../schemas/account-sessions";
import type { AppEnv } from "../context";

// Embedded components (docs/embedding.md): the loader and its types, the frame's first page and its
// script, the exchange of a client secret for the frame's session cookie, and the onboarding
// component's way into the wizard. Not API operations: the loader and the frames use them.

const typesFile = path.join(import.meta.dirname, "../../embed/v1.d.ts");
let types: string | undefined;

const exchangeBody = z.object({
  client_secret: z.string().min(1).max(200),
  component: z.enum(embedComponents),
  parent_origin: z.string().max(300),
  appearance: z.record(z.string(), z.unknown()).optional(),
  locale: z.string().max(10).optional(),
});

const refusals = {
  invalid_secret: "This client secret is unknown, already used or expired: make a new account session",
  origin_not_allowed: "This page's origin is not in the ISV's settings.embed_allowed_origins",
  component_not_enabled: "This account session does not enable this component",
} as const;

/** A page of ours that holds nothing: no caching, no referrer. */
function plain(c: Context<AppEnv>) {
  c.header("Cache-Control", "no-store");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Content-Type-Options", "nosniff");
}

/** A request from a page of this host (or with no Origin at all: not a browser's cross-site call). */
function sameOrigin(origin: string | undefined, host: string | undefined) {
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function embedRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /embed/v1.js: the loader. The path is the version: it changes only compatibly, so browsers
  // keep it a day and revalidate by ETag.
  app.get("/embed/v1.js", async (c) => {
    const { code, etag } = await bundleScript("loader");
    c.header("ETag", etag);
    c.header("Cache-Control", "public, max-age=86400, stale-while-revalidate=604800");
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    c.header("X-Content-Type-Options", "nosniff");
    if (c.req.header("if-none-match") === etag) return c.body(null, 304);
    return c.body(code, 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });

  // GET /embed/v1.d.ts: the elements', events' and properties' types.
  app.get("/embed/v1.d.ts", (c) => {
    types ??= readFileSync(typesFile, "utf8");
    c.header("Cache-Control", "public, max-age=86400");
    c.header("Access-Control-Allow-Origin", "*");
    return c.body(types, 200, { "Content-Type": "application/typescript; charset=utf-8" });
  });

  // GET /embed/v1/frame.js: the first page's script (its CSP allows our own scripts only).
  app.get("/embed/v1/frame.js", async (c) => {
    const { code } = await bundleScript("bootstrap");
    c.header("Cache-Control", "public, max-age=300");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(code, 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });

  // GET /embed/v1/frame?component=...&session=as_...: the frame's first page. Framed only by the
  // origins the session's ISV allows (none: by nobody); it holds nothing until the loader answers.
  app.get("/embed/v1/frame", async (c) => {
    plain(c);
    const isv = await accountSessionIsv(c.get("db"), c.req.query("session") ?? "");
    const origins = isv ? settingsOf(isv).embed_allowed_origins : [];
    c.header("Content-Security-Policy", embedFrameCsp(origins));
    return c.html(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Loading</title><script src="/embed/v1/frame.js" defer></script></head><body></body></html>',
    );
  });

  // POST /embed/v1/sessions (from the frame itself): the client secret for the frame's cookie,
  // set partitioned (the host page's partition alone); answers where the frame goes next.
  app.post("/embed/v1/sessions", async (c) => {
    plain(c);
    if (!sameOrigin(c.req.header("origin"), c.req.header("host")))
      throw new AppError("cross_site_request", "Only the component's own frame exchanges a client secret");
    const parsed = exchangeBody.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success)
      throw new AppError("parameter_invalid", "Send client_secret, component and parent_origin", {
        param: "client_secret",
      });
    const input = parsed.data;
    const result = await exchangeClientSecret(c.get("db"), {
      clientSecret: input.client_secret,
      component: input.component,
      origin: input.parent_origin,
      appearance: input.appearance,
    });
    if (!result.ok) throw new AppError(result.reason, refusals[result.reason]);
    setCookie(c, embedCookie(input.component), result.token, frameCookie(FRAME_COOKIE_MAX_AGE));
    if (isLocale(input.locale))
      setCookie(c, LOCALE_COOKIE, input.locale, frameCookie(FRAME_COOKIE_MAX_AGE, { httpOnly: false }));
    // The onboarding component goes straight into the wizard (one redirect fewer before its first step).
    if (input.component === "onboarding") {
      const opened = await embeddedOnboarding(c.get("db"), result.session);
      if (opened) {
        setCookie(c, ONBOARDING_COOKIE, opened.sessionToken, sessionCookieOptions(true));
        return c.json({ url: opened.path });
      }
    }
    return c.json({ url: framePath(input.component) });
  });

  // GET /embed/v1/session?component=: whether the browser sent the frame's cookie back (the first page checks).
  app.get("/embed/v1/session", async (c) => {
    plain(c);
    const component = embedComponents.find((name) => name === c.req.query("component"));
    const session = component ? await frameSession(getCookie(c, embedCookie(component))) : null;
    return session ? c.json({ ok: true }) : c.json({ ok: false }, 401);
  });

  // GET /embed/v1/onboarding: the onboarding component's way into the wizard (and back into it,
  // from the completion page, when underwriting asks for more).
  app.get("/embed/v1/onboarding", async (c) => {
    plain(c);
    const session = await frameSession(getCookie(c, embedCookie("onboarding")));
    if (!session?.components.onboarding?.enabled) return c.redirect("/home/unavailable?reason=component", 303);
    const opened = await embeddedOnboarding(c.get("db"), session);
    if (!opened) return c.redirect("/home/unavailable?reason=component", 303);
    setCookie(c, ONBOARDING_COOKIE, opened.sessionToken, sessionCookieOptions(true));
    return c.redirect(opened.path, 303);
  });
}
