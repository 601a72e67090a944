import { textOn } from "../branding/contrast";
import { escapeHtml } from "../html";
import { intlLocale, type Locale } from "../i18n/locales";
import { pageMessage, translator } from "../i18n/translate";
import { formatCents } from "../money";
import { brandName } from "../payments/brands";
import type { Finding } from "../underwriting/rules";

export type Brand = { display_name: string; primary_color: string };

export function html(
  brand: Brand,
  locale: Locale,
  intro: string,
  findings: Finding[],
  action?: { href: string; label: string },
  footer?: string,
) {
  const items = findings.map((f) => `<li>${escapeHtml(f.message)}</li>`).join("");
  const button = action
    ? `<p><a href="${escapeHtml(action.href)}" style="display:inline-block;background:${brand.primary_color};color:${textOn(brand.primary_color)};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`
    : "";
  return `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#0f172a"><div style="background:${brand.primary_color};color:${textOn(brand.primary_color)};padding:12px 16px;font-weight:600">${escapeHtml(brand.display_name)}</div><div style="padding:16px"><p>${escapeHtml(intro)}</p><ul>${items}</ul>${button}${footer ? `<p style="color:#475569;font-size:14px">${escapeHtml(footer)}</p>` : ""}</div></body></html>`;
}

/** To the merchant: what underwriting asked for (messages only, never the values) and the portal link. */
export function informationRequestedForMerchant(input: {
  brand: Brand;
  locale: Locale;
  findings: Finding[];
  portalUrl: string;
  /** Whom each request names (an owner's document): the portal's own words need them. */
  names?: (field: string) => Record<string, string>;
}) {
  const t = translator(input.locale, "emails.informationRequested");
  // Each request in the merchant's language, as the portal words it; underwriting's English text
  // only for a request the pages have no words for.
  const findings = input.findings.map((f) => ({
    ...f,
    message: pageMessage(input.locale, `underwriting.${f.code}`, input.names?.(f.field) ?? {}) ?? f.message,
  }));
  const subject = t("merchantSubject", { isv: input.brand.display_name });
  const intro = t("merchantIntro", { isv: input.brand.display_name });
  const text = [
    intro,
    "",
    ...findings.map((f) => `- ${f.message}`),
    "",
    `${t("merchantAction")}: ${input.portalUrl}`,
    "",
    t("merchantExpiry"),
  ].join("\n");
  return {
    senderName: input.brand.display_name,
    subject,
    text,
    html: html(
      input.brand,
      input.locale,
      intro,
      findings,
      { href: input.portalUrl, label: t("merchantAction") },
      t("merchantExpiry"),
    ),
  };
}

export function informationRequestedForIsv(input: {
  brand: Brand;
  locale: Locale;
  findings: Finding[];
  merchantName: string;
  merchantId: string;
}) {
  const t = translator(input.locale, "emails.informationRequested");
  const subject = t("isvSubject", { merchant: input.merchantName });
  const intro = t("isvIntro", { merchant: input.merchantName, id: input.merchantId });
  const text = [intro, "", ...input.findings.map((f) => `- ${f.field}: ${f.message}`), "", t("isvAction")].join("\n");
  return {
    senderName: input.brand.display_name,
    subject,
    text,
    html: html(
      input.brand,
      input.locale,
      intro,
      input.findings.map((f) => ({ ...f, message: `${f.field}: ${f.message}` })),
      undefined,
      t("isvAction"),
    ),
  };
}

/** To the merchant: a single-use link to sign in to its home (docs/reference.md section 15). */
export function homeSignIn(input: { brand: Brand; locale: Locale; url: string }) {
  const t = translator(input.locale, "emails.homeSignIn");
  const intro = t("intro", { isv: input.brand.display_name });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.brand.display_name }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("ignore")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("ignore")),
  };
}

/** To the merchant: its bank refused a payout; a new bank account, verified, pays it (docs/reference.md section 16). */
export function payoutFailed(input: {
  brand: Brand;
  locale: Locale;
  amount: number;
  code: "account_closed" | "no_account" | "invalid_account_number";
  url: string;
}) {
  const t = translator(input.locale, "emails.payoutFailed");
  const amount = formatCents(input.amount, intlLocale(input.locale));
  const intro = t("intro", { isv: input.brand.display_name, amount, reason: t(`reasons.${input.code}`) });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.brand.display_name }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("after")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("after")),
  };
}

/** To the merchant: a customer disputed a payment; what it costs, until when to answer, and where. */
export function disputeOpened(input: {
  brand: Brand;
  locale: Locale;
  amount: number;
  fee: number;
  reason: "fraudulent" | "product_not_received" | "duplicate" | "unrecognized" | "general";
  chargedAt: Date;
  dueBy: Date;
  url: string;
}) {
  const t = translator(input.locale, "emails.disputeOpened");
  const locale = intlLocale(input.locale);
  const day = (d: Date) => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(d);
  const amount = formatCents(input.amount, locale);
  const intro = t("intro", {
    amount,
    fee: formatCents(input.fee, locale),
    reason: t(`reasons.${input.reason}`),
    date: day(input.chargedAt),
    due: day(input.dueBy),
  });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.brand.display_name, amount }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("after")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("after")),
  };
}

/** A change notice: what changed, what to do if it was not the reader, and the "this wasn't me" button. */
function changeNotice(
  input: { brand: Brand; locale: Locale; reportUrl: string },
  t: (key: "action" | "after") => string,
  subject: string,
  intro: string,
) {
  return {
    senderName: input.brand.display_name,
    subject,
    text: [intro, "", t("after"), "", `${t("action")}: ${input.reportUrl}`].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.reportUrl, label: t("action") }, t("after")),
  };
}

/**
 * To the merchant's previous contact and owner one: its payouts' bank account changed; a button
 * that says "this wasn't me" freezes them (docs/reference.md section 16).
 */
export function bankAccountChanged(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  last4: string;
  days: number;
  reportUrl: string;
}) {
  const t = translator(input.locale, "emails.bankAccountChanged");
  const intro = t("intro", {
    isv: input.brand.display_name,
    business: input.business,
    last4: input.last4,
    days: input.days,
  });
  return changeNotice(input, t, t("subject", { isv: input.brand.display_name }), intro);
}

/** To every user of an ISV: its payout bank account was changed, with the "this wasn't us" link. */
export function accountBankAccountChanged(input: {
  brand: Brand;
  locale: Locale;
  isv: string;
  changedBy: string;
  last4: string;
  days: number;
  reportUrl: string;
}) {
  const t = translator(input.locale, "emails.accountBankAccountChanged");
  const intro = t("intro", { isv: input.isv, email: input.changedBy, last4: input.last4, days: input.days });
  return changeNotice(input, t, t("subject", { isv: input.isv }), intro);
}

/** To the merchant's contact and owner one: a new secret API key was made in the home. */
export function apiKeyCreated(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  last4: string;
  reportUrl: string;
}) {
  const t = translator(input.locale, "emails.apiKeyCreated");
  const values = { isv: input.brand.display_name, business: input.business, last4: input.last4 };
  const intro = t("intro", values);
  return changeNotice(input, t, t("subject", values), intro);
}

/** To the merchant's contact and owner one: a debit card was added for instant payouts (docs/reference.md section 20). */
export function payoutCardAdded(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  card: string;
  last4: string;
  days: number;
  reportUrl: string;
}) {
  const t = translator(input.locale, "emails.payoutCardAdded");
  const values = { isv: input.brand.display_name, business: input.business, last4: input.last4, days: input.days };
  const intro = t("intro", { ...values, card: brandName(input.card) });
  return changeNotice(input, t, t("subject", values), intro);
}

/** To the merchant's previous contact and owner one: someone asked to change the contact e-mail. */
export function contactEmailChanging(input: {
  brand: Brand;
  locale: Locale;
  business: string;
  email: string;
  reportUrl: string;
}) {
  const t = translator(input.locale, "emails.contactEmailChanging");
  const intro = t("intro", { isv: input.brand.display_name, business: input.business, email: input.email });
  return changeNotice(input, t, t("subject", { isv: input.brand.display_name }), intro);
}

/** To a new contact address: confirm it before it receives sign-in links. */
export function confirmContactEmail(input: { brand: Brand; locale: Locale; business: string; url: string }) {
  const t = translator(input.locale, "emails.confirmContactEmail");
  const intro = t("intro", { isv: input.brand.display_name, business: input.business });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.brand.display_name }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("after")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("after")),
  };
}

/** To an ISV's user: a single-use link to choose a new password (docs/reference.md section 23). */
export function passwordReset(input: { brand: Brand; locale: Locale; email: string; url: string }) {
  const t = translator(input.locale, "emails.passwordReset");
  const intro = t("intro", { platform: input.brand.display_name, email: input.email });
  return {
    senderName: input.brand.display_name,
    subject: t("subject"),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("ignore")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("ignore")),
  };
}

/** To the merchant mid-application: a new link to finish it later (docs/reference.md section 12). */
export function resumeLink(input: { brand: Brand; locale: Locale; url: string; hours: number }) {
  const t = translator(input.locale, "emails.resumeLink");
  const intro = t("intro", { isv: input.brand.display_name, hours: input.hours });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.brand.display_name }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("ignore")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("ignore")),
  };
}
