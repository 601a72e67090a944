import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, locales, negotiateLocale, type Locale } from "./locales";

// The locale: the remembered choice (cookie) first, else Accept-Language.
export default getRequestConfig(async () => {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale: Locale = (locales as readonly string[]).includes(chosen ?? "")
    ? (chosen as Locale)
    : negotiateLocale((await headers()).get("accept-language"));
  return { locale, messages: (await import(`./messages/${locale}.json`)).default };
});
