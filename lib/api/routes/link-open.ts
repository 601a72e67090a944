import type { OpenAPIHono } from "@hono/zod-openapi";
import { setCookie } from "hono/cookie";

import { ONBOARDING_COOKIE } from "../../auth/cookies";
import { sessionCookieOptions } from "../../auth/onboarding-session";
import { renderLinkUnavailablePage } from "../../branding/link-unavailable-page";
import { getAccount } from "../../domain/accounts/get-account";
import { brandOf } from "../../domain/accounts/isv-facts";
import { isvForHost } from "../../domain/accounts/isv-for-host";
import { openOnboardingLink } from "../../domain/onboarding/open-onboarding-link";
import { negotiateLocale } from "../../i18n/locales";
import { linkPageCsp } from "../../net/csp";
import type { AppEnv } from "../context";

export function linkOpenRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /onboard/{token}: an onboarding link's url; opens a session and redirects into the wizard
  app.get("/onboard/:token", async (c) => {
    const result = await openOnboardingLink(c.get("db"), c.req.param("token"));
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    if (result.kind === "open") {
      setCookie(c, ONBOARDING_COOKIE, result.sessionToken, sessionCookieOptions());
      return c.redirect("/onboarding", 303);
    }
    // Approved: the home's sign-in (a single-use link to the contact's e-mail), not a session.
    if (result.kind === "home") return c.redirect("/home/sign-in?approved=1", 303);
    const locale = negotiateLocale(c.req.header("accept-language"));
    c.header("Content-Security-Policy", linkPageCsp);
    if (result.kind === "unknown") {
      // On an ISV's own domain, its brand (the link the merchant holds came from it); else the plain page.
      const hostIsv = await isvForHost(c.get("db"), c.req.header("host") ?? "");
      return c.html(
        renderLinkUnavailablePage({ reason: "unknown", locale, branding: hostIsv ? brandOf(hostIsv) : undefined }),
        404,
      );
    }
    // As Stripe does: an expired link with a refresh_url sends the merchant on by itself (the ISV
    // makes a new link there); without one, the branded page says what to do.
    if (result.kind === "expired" && result.refreshUrl) return c.redirect(result.refreshUrl, 303);
    const isv = await getAccount(c.get("db"), result.isvAccountId);
    return c.html(
      renderLinkUnavailablePage({ reason: result.kind, locale, branding: brandOf(isv), refreshUrl: result.refreshUrl }),
      410,
    );
  });
}
