import { IntlMessageFormat } from "intl-messageformat";

import type { Locale } from "./locales";
import pageEn from "./messages/en.json";
import pageEs from "./messages/es.json";
import en from "./server-messages/en.json";
import es from "./server-messages/es.json";

const messages = { en, es };
const pageMessages = { en: pageEn, es: pageEs };

/** Formats one message of a namespace with its values (ICU syntax, as the pages' messages). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

const compiled = new Map<string, IntlMessageFormat>();

/**
 * A translator for server code outside React (e-mails, text messages): the server's own message
 * files (lib/i18n/server-messages, beside the pages' lib/i18n/messages, which every page sends to
 * the browser), in the same ICU syntax; a new language is one more file, not a branch in each template.
 * Formatted by intl-messageformat itself, not next-intl: inside the Next build next-intl expects
 * messages precompiled (next.config.js), and these files are not, so a template queued from a
 * page's server action would go out with its `{placeholders}` unformatted.
 */
export function translator(locale: Locale, namespace: string): Translate {
  const base = namespace
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], messages[locale]);
  return (key, values) => {
    const id = `${locale}:${namespace}.${key}`;
    let format = compiled.get(id);
    if (!format) {
      const message = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], base);
      if (typeof message !== "string") throw new Error(`No server message ${namespace}.${key} in ${locale}`);
      format = new IntlMessageFormat(message, locale);
      compiled.set(id, format);
    }
    return String(format.format(values));
  };
}

/**
 * One of the pages' messages (lib/i18n/messages), formatted on the server, or null when it has none:
 * what an e-mail says in the same words as the page it leads to (underwriting's requests).
 */
export function pageMessage(locale: Locale, key: string, values?: Record<string, string | number>): string | null {
  const message = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], pageMessages[locale]);
  if (typeof message !== "string") return null;
  const id = `page:${locale}:${key}`;
  let format = compiled.get(id);
  if (!format) {
    format = new IntlMessageFormat(message, locale);
    compiled.set(id, format);
  }
  return String(format.format(values));
}
