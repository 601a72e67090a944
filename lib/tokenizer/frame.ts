import { randomBytes } from "node:crypto";

import { bundleScript } from "../browser-scripts";
import { escapeHtml } from "../html";
import type { Locale } from "../i18n/locales";
import en from "../i18n/server-messages/en.json" with { type: "json" };
import es from "../i18n/server-messages/es.json" with { type: "json" };
import { tokenizerCsp } from "../net/csp";

// The tokenizer frame (docs/reference.md section 10): its own small HTML page on its own origin
// (TOKENIZER_ORIGIN) with a strict CSP (no inline script, no third-party anything, framed only by the
// pay page that asked for it) and its script, bundled once from lib/tokenizer/frame-script.ts with
// the card rules the server uses. It talks to its parent by postMessage only, to that one origin.

// The frame's words, from the message files (tokenizer.card, tokenizer.bank).
const copy = { en: en.tokenizer.card, es: es.tokenizer.card } satisfies Record<Locale, unknown>;
const bankCopy = { en: en.tokenizer.bank, es: es.tokenizer.bank } satisfies Record<Locale, unknown>;

/** The frame's script, bundled for the browser on first use and kept in memory. */
export const frameScript = () => bundleScript("tokenizer").then((bundle) => bundle.code);

const hex = /^#[0-9a-fA-F]{6}$/;

export function frameHtml(input: {
  publishableKey: string;
  locale: Locale;
  accent?: string;
  kind?: "card" | "bank_account";
  /** The page that frames it (checked by the caller): the only origin it talks to, and may be framed by. */
  parentOrigin: string;
}) {
  const kind = input.kind ?? "card";
  const t = copy[input.locale];
  const b = bankCopy[input.locale];
  const nonce = randomBytes(16).toString("base64");
  const accent = input.accent && hex.test(input.accent) ? input.accent : "#1a56db";
  const csp = tokenizerCsp({ nonce, parentOrigin: input.parentOrigin });
  const field = (id: string, label: string, attrs: string) =>
    `<div class="f"><label for="${id}">${escapeHtml(label)}</label><input id="${id}" ${attrs} aria-describedby="${id}-error"><p id="${id}-error" class="e" role="alert"></p></div>`;
  const title = kind === "card" ? t.title : b.title;
  const fields =
    kind === "card"
      ? `<div class="f"><div class="lab"><label for="card-number">${escapeHtml(t.number)}</label><span id="card-brand" class="brand" aria-live="polite"></span></div><input id="card-number" name="cardnumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false" aria-describedby="card-number-error card-brand"><p id="card-number-error" class="e" role="alert"></p></div>
<div class="row">${field("card-exp", t.exp, `name="exp-date" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="${escapeHtml(t.expPlaceholder)}"`)}${field("card-cvc", t.cvc, 'name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}</div>`
      : `${field("bank-holder", b.holder, 'name="account-holder" autocomplete="name" maxlength="100"')}
${field("bank-routing", b.routing, 'name="routing-number" inputmode="numeric" autocomplete="off" maxlength="9" spellcheck="false"')}
${field("bank-account", b.account, 'name="account-number" inputmode="numeric" autocomplete="off" maxlength="17" spellcheck="false"')}
<div class="f"><label for="bank-type">${escapeHtml(b.type)}</label><select id="bank-type" name="account-type"><option value="checking">${escapeHtml(b.checking)}</option><option value="savings">${escapeHtml(b.savings)}</option></select></div>`;
  const messages = kind === "card" ? t.messages : b.messages;
  const html = `<!doctype html><html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style nonce="${nonce}">
*{box-sizing:border-box}html,body{overflow:hidden}body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:transparent}form{display:flow-root}
.f{margin:0 0 12px}label{display:block;font-weight:600;font-size:15px;margin:0 0 4px}
input,select{width:100%;font:inherit;padding:10px 12px;border:1px solid #64748b;border-radius:8px;background:#fff;color:#0f172a;min-height:44px}
input:focus,select:focus{outline:3px solid ${accent};outline-offset:1px}input[aria-invalid=true]{border-color:#b91c1c}
.lab{display:flex;align-items:flex-end;justify-content:space-between;gap:8px;margin:0 0 4px}.lab label{margin:0}.brand{font-size:13px;font-weight:700;padding:1px 8px;border-radius:6px;border:1px solid #64748b;background:#f8fafc;color:#0f172a;white-space:nowrap}.brand:empty{display:none}
.row{display:flex;gap:12px}.row .f{flex:1;min-width:0}.e{color:#b91c1c;margin:4px 0 0;font-size:14px}.e:empty{display:none}
</style></head><body><form id="tokenizer" novalidate data-kind="${kind}" data-parent="${escapeHtml(input.parentOrigin)}" data-key="${escapeHtml(input.publishableKey)}" data-messages="${escapeHtml(JSON.stringify(messages))}" aria-label="${escapeHtml(title)}">
${fields}
</form><script src="/tokenizer/frame.js"></script></body></html>`;
  return { html, csp };
}
