import type { OpenAPIHono } from "@hono/zod-openapi";

import { isPublishableKey } from "../../auth/secrets";
import { isPayPageOrigin, tokenizerHost } from "../../branding/hosts";
import { isLocale, type Locale, negotiateLocale } from "../../i18n/locales";
import { frameHtml, frameScript } from "../../tokenizer/frame";
import type { AppEnv } from "../context";

/**
 * The tokenizer frames (not API operations: pages embed them): GET /tokenizer/card,
 * /tokenizer/bank_account (`key`, `locale`, `accent`, and `origin`: the framing page's origin,
 * one of the service's or a verified custom domain's) and their script, on TOKENIZER_ORIGIN.
 */
export function tokenizerRoutes(app: OpenAPIHono<AppEnv>) {
  // GET /tokenizer/card?key=pk_...&locale=en|es: the card fields, in their own frame;
  // GET /tokenizer/bank_account: the bank account fields (ACH), the same way
  app.get("/tokenizer/:kind{card|bank_account}", async (c) => {
    // Only on the tokenizer's own origin: framed from the same origin as a page, it would be readable by it.
    if (tokenizerHost && c.req.header("host")?.toLowerCase() !== tokenizerHost)
      return c.text("The card frame is served from its own origin", 404);
    const key = c.req.query("key") ?? "";
    if (!isPublishableKey(key)) return c.text("Unknown tokenizer key", 404);
    const parentOrigin = c.req.query("origin") ?? "";
    if (!(await isPayPageOrigin(c.get("db"), parentOrigin))) return c.text("Unknown page origin", 400);
    const asked = c.req.query("locale");
    const locale: Locale = isLocale(asked) ? asked : negotiateLocale(c.req.header("accept-language"));
    const kind = c.req.param("kind") === "bank_account" ? "bank_account" : "card";
    const { html, csp } = frameHtml({ publishableKey: key, locale, accent: c.req.query("accent"), kind, parentOrigin });
    return c.html(html, 200, {
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-store",
    });
  });

  // GET /tokenizer/frame.js: the frame's script (our own origin only, per the frame's CSP)
  app.get("/tokenizer/frame.js", async (c) =>
    c.body(await frameScript(), 200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=300",
    }),
  );
}
