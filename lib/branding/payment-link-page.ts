import { escapeHtml } from "../html";
import { intlLocale, type Locale } from "../i18n/locales";
import en from "../i18n/messages/en.json" with { type: "json" };
import es from "../i18n/messages/es.json" with { type: "json" };
import { formatCents } from "../money";
import type { MerchantDefaults } from "../schemas/account";
import { renderBrandedPage } from "./link-unavailable-page";

// The pages a payment link's URL shows instead of sending the customer on to pay (docs/reference.md
// section 21): the amount to type when the customer chooses it, and a link that takes no payment.

const messages = { en: en.paymentLink, es: es.paymentLink };

/** The form for a link whose customer chooses the amount: posted back to the link's own URL. */
export function renderChooseAmountPage(input: {
  locale: Locale;
  branding?: MerchantDefaults;
  business: string;
  description: string | null;
  min: number;
  max: number;
  error?: boolean;
  /** What the customer typed, shown again with the error. */
  typed?: string;
}) {
  const t = messages[input.locale];
  const money = (cents: number) => formatCents(cents, intlLocale(input.locale));
  const range = (input.error ? t.outOfRange : t.range)
    .replace("{min}", money(input.min))
    .replace("{max}", money(input.max));
  const hint = input.error
    ? `<p id="amount-hint" class="hint error" role="alert">${escapeHtml(range)}</p>`
    : `<p id="amount-hint" class="hint">${escapeHtml(range)}</p>`;
  return renderBrandedPage({
    locale: input.locale,
    branding: input.branding,
    name: input.business,
    footer: t.footer,
    title: t.chooseTitle,
    content: `<h1>${escapeHtml(t.chooseTitle)}</h1>${input.description ? `<p>${escapeHtml(input.description)}</p>` : ""}
<form method="post"><label for="amount">${escapeHtml(t.amountLabel)}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="transaction-amount" required aria-describedby="amount-hint"${input.error ? ' aria-invalid="true"' : ""} value="${escapeHtml(input.typed ?? "")}">
${hint}<button class="button" type="submit">${escapeHtml(t.continue)}</button></form>`,
  });
}

/** A link turned off, expired, used up or of a merchant that no longer takes payments; or no such link. */
export function renderLinkOffPage(input: {
  locale: Locale;
  branding?: MerchantDefaults;
  business?: string;
  unknown: boolean;
}) {
  const t = messages[input.locale];
  const title = input.unknown ? t.unknownTitle : t.offTitle;
  const body = input.unknown ? t.unknownBody : t.offBody.replace("{name}", input.business ?? "");
  return renderBrandedPage({
    locale: input.locale,
    branding: input.branding,
    name: input.business,
    footer: t.footer,
    title,
    content: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>`,
  });
}
