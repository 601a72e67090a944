import { intlLocale, type Locale } from "../i18n/locales";
import { translator } from "../i18n/translate";
import { amountLines, type Brand, type Items, type Line, money, page } from "./payment-templates";

// The e-mails a subscription's customer receives when its payment fails (docs/reference.md section 21):
// after each failed attempt, with the next try's date and a link to pay (with another card, too);
// after the last, that the subscription is on hold (unpaid) or canceled.

export function dunningEmail(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  total: number;
  items: Items;
  period: { start: Date; end: Date };
  method: { kind: "card" | "bank_account"; last4: string };
  payUrl: string;
  /** The next automatic try; null when none will be made on this card (a hard decline). */
  nextAttempt?: Date | null;
  /** The dunning is over. */
  final?: "unpaid" | "canceled";
}) {
  const t = translator(input.locale, "emails.subscriptions");
  const pt = translator(input.locale, "emails.payments");
  const day = (d: Date) =>
    new Intl.DateTimeFormat(intlLocale(input.locale), { dateStyle: "long", timeZone: "UTC" }).format(d);
  const facts = {
    business: input.business,
    total: money(input.total, input.locale),
    card: t(input.method.kind === "card" ? "card" : "bankAccount", { last4: input.method.last4 }),
  };
  const intro =
    input.final === "canceled"
      ? t("canceledIntro", facts)
      : input.final === "unpaid"
        ? t("unpaidIntro", facts)
        : `${t("failedIntro", facts)} ${input.nextAttempt ? t("retryOn", { date: day(input.nextAttempt) }) : t("noRetry")}`;
  const subject =
    input.final === "canceled"
      ? t("canceledSubject", facts)
      : input.final === "unpaid"
        ? t("unpaidSubject", facts)
        : t("failedSubject", facts);
  const lines: Line[] = [
    [t("period"), `${day(input.period.start)} – ${day(input.period.end)}`],
    ...amountLines({ subtotal: input.total, tax: 0, tip: 0, total: input.total, items: input.items }, input.locale, pt),
  ];
  // A canceled subscription's invoice is canceled with it: nothing is left to pay.
  const action = input.final === "canceled" ? undefined : { href: input.payUrl, label: t("action") };
  return {
    senderName: input.business,
    subject,
    text: `${intro}\n\n${lines.map(([k, v]) => `${k}: ${v}`).join("\n")}\n${action ? `\n${action.label}: ${action.href}\n` : ""}`,
    html: page(
      input.brand,
      input.locale,
      intro,
      lines,
      action,
      pt("sentWith", { isv: input.brand.display_name }),
      input.business,
    ),
  };
}
