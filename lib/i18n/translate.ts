import { createTranslator } from "next-intl";

import type { Locale } from "./locales";
import en from "./server-messages/en.json";
import es from "./server-messages/es.json";

const messages = { en, es };

/** Formats one message of a namespace with its values (ICU syntax, as the pages' messages). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * A translator for server code outside React (e-mails, text messages): the server's own message
 * files (lib/i18n/server-messages, beside the pages' lib/i18n/messages, which every page sends to
 * the browser), in the same ICU syntax; a new language is one more file, not a branch in each template.
 */
export function translator(locale: Locale, namespace: string): Translate {
  const t = createTranslator({ locale, messages: messages[locale], namespace: namespace as never });
  return (key, values) => (t as unknown as Translate)(key, values);
}
