import { escapeHtml } from "../html";
import type { Locale } from "../i18n/locales";
import en from "../i18n/messages/en.json" with { type: "json" };
import es from "../i18n/messages/es.json" with { type: "json" };
import { hasOwnLogo, type MerchantDefaults } from "../schemas/account";
import { textOn } from "./contrast";

const messages = { en: en.linkUnavailable, es: es.linkUnavailable };
// The wizard's footer line, so that these pages sit in the same frame as the wizard's.
const wizard = { en: en.wizard, es: es.wizard };

/**
 * The branded page for an expired, superseded or unknown link. Plain server-rendered HTML (it is
 * answered with 410/404 by the API server); colours were validated as hex when saved.
 */
export function renderLinkUnavailablePage(input: {
  reason: "expired" | "superseded" | "unknown";
  locale: Locale;
  branding?: MerchantDefaults;
  refreshUrl?: string | null;
}) {
  const t = messages[input.locale];
  const brand = input.branding;
  const name = brand?.display_name ?? t.defaultName;
  const title =
    input.reason === "unknown" ? t.unknownTitle : input.reason === "superseded" ? t.supersededTitle : t.expiredTitle;
  const body = input.reason === "unknown" ? t.unknownBody : t.body;
  const action = input.refreshUrl
    ? `<p><a class="button" href="${escapeHtml(input.refreshUrl)}">${escapeHtml(t.refresh)}</a></p>`
    : input.reason !== "unknown"
      ? `<p>${escapeHtml(t.askForNew.replace("{name}", name))}</p>`
      : "";
  return renderBrandedPage({
    locale: input.locale,
    branding: brand,
    title,
    content: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${action}`,
  });
}

/**
 * The frame of the plain pages the API server answers on the hosted origin (a link that cannot be
 * opened, a payment link's amount): the ISV's colour and logo above, "powered by" and its support
 * address below. `content` is HTML the caller escaped.
 */
export function renderBrandedPage(input: {
  locale: Locale;
  branding?: MerchantDefaults;
  title: string;
  content: string;
  /** The business the page is for, when it is not the ISV (a merchant's payment link). */
  name?: string;
  /** The footer's line (default: the wizard's "secure application"). */
  footer?: string;
}) {
  const t = messages[input.locale];
  const brand = input.branding;
  const primary = brand?.primary_color ?? "#1d4ed8";
  const name = input.name ?? brand?.display_name ?? t.defaultName;
  const title = input.title;
  const support = brand?.support?.email
    ? `<p>${escapeHtml(t.support)} <a href="mailto:${escapeHtml(brand.support.email)}">${escapeHtml(brand.support.email)}</a></p>`
    : "";
  return `<!doctype html>
<html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(name)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
header{background:${primary};color:${textOn(primary)}}
header .bar{max-width:48rem;margin:0 auto;padding:14px 16px;box-sizing:border-box;display:flex;align-items:center;gap:12px}
header img{height:32px;max-width:160px;object-fit:contain;background:#fff;border-radius:4px;padding:2px}
.monogram{display:inline-grid;place-items:center;width:32px;height:32px;border-radius:50%;background:#fff;color:${primary};font-weight:700}
body{display:flex;flex-direction:column;min-height:100vh}
main{flex:1;width:100%;max-width:48rem;margin:0 auto;padding:24px 16px;box-sizing:border-box;line-height:1.5}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:24px}
footer{border-top:1px solid #e2e8f0;background:#fff;color:#475569;font-size:.875rem}
footer div{max-width:48rem;margin:0 auto;padding:16px;box-sizing:border-box}
h1{font-size:1.5rem}
.button{display:inline-block;background:${primary};color:${textOn(primary)};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600}
.button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #0f172a;outline-offset:2px}
label{display:block;font-weight:600;margin-bottom:4px}
input{font:inherit;padding:10px 12px;border:1px solid #64748b;border-radius:8px;width:100%;max-width:16rem;box-sizing:border-box}
button.button{border:0;font:inherit;font-weight:600;cursor:pointer;margin-top:16px}
.hint{color:#475569;font-size:.875rem;margin:4px 0 0}
.error{color:#b91c1c;font-weight:600}
</style></head>
<body><header><div class="bar">${brand && hasOwnLogo(brand.logo) ? `<img src="${escapeHtml(brand.logo)}" alt="">` : `<span class="monogram" aria-hidden="true">${escapeHtml(name.trim().charAt(0).toUpperCase() || "?")}</span>`}<strong>${escapeHtml(name)}</strong></div></header>
<main><div class="card">${input.content}</div></main>
<footer><div><p>${escapeHtml(input.footer ?? wizard[input.locale].poweredBy)}</p>${support}</div></footer></body></html>`;
}
