export const locales = ["en", "es"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";
export const LOCALE_COOKIE = "locale";

/** Whether a value is a supported locale (a third language is one edit: the list above). */
export const isLocale = (value: unknown): value is Locale =>
  typeof value === "string" && (locales as readonly string[]).includes(value);
/** A supported locale from any value: itself when supported, else `fallback`. */
export const toLocale = (value: unknown, fallback: Locale = defaultLocale): Locale =>
  isLocale(value) ? value : fallback;

/** The best supported locale for an Accept-Language header (q-values honoured). */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return defaultLocale;
  const ranked = acceptLanguage
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: (tag ?? "").toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const base = tag.split("-")[0] as Locale;
    if ((locales as readonly string[]).includes(base)) return base;
  }
  return defaultLocale;
}

/** The Intl locale that formats money and dates for a reader of `locale` (US dollars either way). */
export const intlLocale = (locale: string) => (locale === "es" ? "es-US" : "en-US");
