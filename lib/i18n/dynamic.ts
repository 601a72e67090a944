// Messages whose key is built at run time (an underwriting code, an enumeration value, a field's
// path, a rule's message key): the catalogue's keys are typed, so a made-up key needs a cast; it is
// made here once (`loose`), and a key the catalogue lacks answers null for the caller's fallback
// (the API's own message, the raw value) instead of showing the key.

/** next-intl's translator, from `useTranslations` or `getTranslations`, whatever its namespace. */
export type Translator = { (key: never, values?: never): string; has(key: never): boolean };
/** The same translator taking any key: for code that walks the catalogue (field labels). */
export type LooseTranslator = {
  (key: string, values?: Record<string, unknown>): string;
  has(key: string): boolean;
  raw(key: string): unknown;
};

/** The translator for keys built at run time: the one cast from next-intl's typed keys. */
export function loose(t: Translator): LooseTranslator {
  return t as unknown as LooseTranslator;
}

/** The message at `key` with `values`, or null when there is none. */
export function messageOr(t: Translator, key: string, values?: Record<string, unknown>): string | null {
  const any = loose(t);
  return any.has(key) ? any(key, values) : null;
}

/** An enumeration's value in the reader's words (`prefix.value`), or the value as written. */
export function enumLabel(t: Translator, prefix: string, value: string): string {
  return messageOr(t, `${prefix}.${value}`) ?? value;
}
