import { textOn } from "../branding/contrast";
import { escapeHtml } from "../html";
import { intlLocale, type Locale } from "../i18n/locales";
import { translator } from "../i18n/translate";
import { formatCents } from "../money";
import { brandName } from "../payments/brands";

// The messages a customer receives about a payment: the invoice (e-mail and text) and the receipt.

export type Brand = { display_name: string; primary_color: string };
export type Line = [label: string, value: string];

export const money = (cents: number, locale: Locale) => formatCents(cents, intlLocale(locale));

export function page(
  brand: Brand,
  locale: Locale,
  intro: string,
  lines: Line[],
  action?: { href: string; label: string },
  footer?: string,
  /** Whose message it is, at its top: the business the customer pays (the ISV's brand is the footer's). */
  sender = brand.display_name,
) {
  const rows = lines
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#475569">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`,
    )
    .join("");
  const button = action
    ? `<p><a href="${escapeHtml(action.href)}" style="display:inline-block;background:${brand.primary_color};color:${textOn(brand.primary_color)};padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
    : "";
  return `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#0f172a"><div style="background:${brand.primary_color};color:${textOn(brand.primary_color)};padding:12px 16px;font-weight:600">${escapeHtml(sender)}</div><div style="padding:16px"><p>${escapeHtml(intro)}</p><table>${rows}</table>${button}${footer ? `<p style="color:#475569;font-size:14px">${escapeHtml(footer)}</p>` : ""}</div></body></html>`;
}

export type Items = { name: string; quantity: number; unit_price: number }[] | null;

/** What a payment was for: each item, then the subtotal, the tax (and tip) and the total. */
export function amountLines(
  input: { subtotal: number; tax: number; tip: number; total: number; items: Items },
  locale: Locale,
  t: ReturnType<typeof translator>,
): Line[] {
  return [
    ...(input.items ?? []).map((i): Line => [`${i.quantity} × ${i.name}`, money(i.quantity * i.unit_price, locale)]),
    ...(input.tax > 0 || input.tip > 0 ? [[t("subtotal"), money(input.subtotal, locale)] as Line] : []),
    ...(input.tax > 0 ? [[t("tax"), money(input.tax, locale)] as Line] : []),
    ...(input.tip > 0 ? [[t("tip"), money(input.tip, locale)] as Line] : []),
    [t("total"), money(input.total, locale)],
  ];
}

export function invoiceEmail(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  subtotal: number;
  tax: number;
  tip: number;
  total: number;
  items: Items;
  description?: string | null;
  payUrl: string;
}) {
  const t = translator(input.locale, "emails.payments");
  const total = money(input.total, input.locale);
  // What the invoice is for, each item, then the subtotal, the tax (and tip) and the total.
  const lines: Line[] = [
    ...(input.description ? [[t("invoiceFor"), input.description] as Line] : []),
    ...amountLines(input, input.locale, t),
  ];
  const intro = t("invoiceIntro", { business: input.business, total });
  return {
    senderName: input.business,
    subject: t("invoiceSubject", { business: input.business }),
    text: `${intro}\n\n${lines.map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${t("invoiceAction")}: ${input.payUrl}\n`,
    html: page(
      input.brand,
      input.locale,
      intro,
      lines,
      { href: input.payUrl, label: t("invoiceAction") },
      t("sentWith", { isv: input.brand.display_name }),
      input.business,
    ),
  };
}

export const invoiceSms = (input: { locale: Locale; business: string; total: number; payUrl: string }) =>
  translator(input.locale, "emails.payments")("invoiceSms", {
    business: input.business,
    total: money(input.total, input.locale),
    url: input.payUrl,
  });

/** The receipt's time of payment, one formatter per locale: making one costs far more than formatting with it. */
const receiptTimes = new Map<Locale, Intl.DateTimeFormat>();
function receiptTime(locale: Locale) {
  let format = receiptTimes.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
    receiptTimes.set(locale, format);
  }
  return format;
}

export function receiptEmail(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  total: number;
  brandName: string | null;
  last4: string | null;
  paidAt: Date;
  receiptNumber: string;
  /** A bank debit: processing until it clears, not yet received. */
  bank?: boolean;
  /** What was paid for: the request's items and amounts (its total is `total`). */
  amounts: { subtotal: number; tax: number; tip: number; items: Items };
  /** How the customer reaches the business (lib/merchants/facts.ts receiptContact). */
  contact: { address: string | null; phone: string | null; email: string | null };
}) {
  const t = translator(input.locale, "emails.payments");
  const total = money(input.total, input.locale);
  const when = receiptTime(input.locale).format(input.paidAt);
  // How it was paid, in the customer's words: the card's network as printed on it, or "Bank account".
  const method = input.bank
    ? ([t("bankAccount"), `•••• ${input.last4 ?? ""}`] as Line)
    : ([t("card"), `${brandName(input.brandName)} •••• ${input.last4 ?? ""}`.trim()] as Line);
  const lines: Line[] = [
    ...amountLines({ ...input.amounts, total: input.total }, input.locale, t),
    [t("receiptNumber"), input.receiptNumber],
    method,
    [t("date"), `${when} UTC`],
    ...(input.contact.address ? [[t("address"), input.contact.address] as Line] : []),
    ...(input.contact.phone ? [[t("phone"), input.contact.phone] as Line] : []),
    ...(input.contact.email ? [[t("email"), input.contact.email] as Line] : []),
  ];
  const intro = t(input.bank ? "receiptIntroAch" : "receiptIntro", { business: input.business, total });
  return {
    senderName: input.business,
    subject: t("receiptSubject", { business: input.business }),
    text: `${intro}\n\n${lines.map(([k, v]) => `${k}: ${v}`).join("\n")}\n`,
    html: page(
      input.brand,
      input.locale,
      intro,
      lines,
      undefined,
      t("poweredBy", { isv: input.brand.display_name }),
      input.business,
    ),
  };
}
