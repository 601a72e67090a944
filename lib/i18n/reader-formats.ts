import { getFormatter, getLocale } from "next-intl/server";

import { formatCents } from "../money";
import { intlLocale } from "./locales";

/**
 * The reader's money and moments, for server components: `money(cents)` in the reader's locale and
 * `when(date)` as a medium date with its time (a payment, an upload, a link), the same everywhere.
 */
export async function readerFormats() {
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  return {
    money: (cents: number) => formatCents(cents, locale),
    when: (d: Date) => format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }),
  };
}
