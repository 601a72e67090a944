import { textOn } from "../branding/contrast";
import { escapeHtml } from "../html";
import type { Locale } from "../i18n/locales";
import type { Finding } from "../underwriting/rules";

const copy = {
  en: {
    merchantSubject: (isv: string) => `${isv}: we need a few more details for your application`,
    merchantIntro: (isv: string) =>
      `Thank you for applying with ${isv}. To finish reviewing your application we need you to check or complete the following:`,
    merchantAction: "Update your application",
    merchantExpiry: "For your security this link works for a limited time. If it has expired, ask for a new one.",
    isvSubject: (merchant: string) => `Information requested from ${merchant}`,
    isvIntro: (merchant: string, id: string) =>
      `Underwriting needs more information from ${merchant} (${id}) before it can be approved:`,
    isvAction:
      "The merchant has been sent a link to the self-service portal where applicable. You can also create a new onboarding link through the API.",
  },
  es: {
    merchantSubject: (isv: string) => `${isv}: necesitamos algunos datos más para su solicitud`,
    merchantIntro: (isv: string) =>
      `Gracias por su solicitud con ${isv}. Para terminar de revisarla necesitamos que revise o complete lo siguiente:`,
    merchantAction: "Actualizar su solicitud",
    merchantExpiry:
      "Por su seguridad, este enlace funciona durante un tiempo limitado. Si ha caducado, pida uno nuevo.",
    isvSubject: (merchant: string) => `Información solicitada a ${merchant}`,
    isvIntro: (merchant: string, id: string) =>
      `La evaluación necesita más información de ${merchant} (${id}) antes de poder aprobarlo:`,
    isvAction:
      "Cuando corresponde, el comercio ha recibido un enlace al portal de autoservicio. También puede crear un nuevo enlace de alta con la API.",
  },
};

type Brand = { display_name: string; primary_color: string };

function html(
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
}) {
  const t = copy[input.locale];
  const subject = t.merchantSubject(input.brand.display_name);
  const intro = t.merchantIntro(input.brand.display_name);
  const text = [
    intro,
    "",
    ...input.findings.map((f) => `- ${f.message}`),
    "",
    `${t.merchantAction}: ${input.portalUrl}`,
    "",
    t.merchantExpiry,
  ].join("\n");
  return {
    subject,
    text,
    html: html(
      input.brand,
      input.locale,
      intro,
      input.findings,
      { href: input.portalUrl, label: t.merchantAction },
      t.merchantExpiry,
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
  const t = copy[input.locale];
  const subject = t.isvSubject(input.merchantName);
  const intro = t.isvIntro(input.merchantName, input.merchantId);
  const text = [intro, "", ...input.findings.map((f) => `- ${f.field}: ${f.message}`), "", t.isvAction].join("\n");
  return {
    subject,
    text,
    html: html(
      input.brand,
      input.locale,
      intro,
      input.findings.map((f) => ({ ...f, message: `${f.field}: ${f.message}` })),
      undefined,
      t.isvAction,
    ),
  };
}
