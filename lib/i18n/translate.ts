import { createTranslator } from "next-intl";

import type { Locale } from "./locales";
import en from "./messages/en.json" with { type: "json" };
import es from "./messages/es.json" with { type: "json" };

const messages = { en, es };

/** Formats one message of a namespace with its values (ICU syntax, as the pages' messages). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * A translator for server code outside React (e-mails, text messages, documents): the same message
 * files as the pages, so a new language is one more file, not a new branch in each template.
 */
export function translator(locale: Locale, namespace: string): Translate {
  const t = createTranslator({ locale, messages: messages[locale], namespace: namespace as never });
  return (key, values) => (t as unknown as Translate)(key, values);
}
