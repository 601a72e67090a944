import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";

import { isLocale, type Locale, LOCALE_COOKIE, negotiateLocale } from "./locales";

// The locale: one asked for explicitly (getTranslations({ locale })), else the remembered choice
// (cookie), else Accept-Language.
export default getRequestConfig(async ({ locale: explicit }) => {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale: Locale = isLocale(explicit)
    ? explicit
    : isLocale(chosen)
      ? chosen
      : negotiateLocale((await headers()).get("accept-language"));
  return { locale, messages: (await import(`./messages/${locale}.json`)).default };
});
