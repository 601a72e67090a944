import { createHash } from "node:crypto";

import type { Locale } from "../i18n/locales";
import { intlLocale } from "../i18n/locales";
import en from "../i18n/messages/en.json";
import es from "../i18n/messages/es.json";
import type { LooseJson } from "../loose-json";
import { formatCents } from "../money";
import { ownerKeys } from "../schemas/vocabulary";
import { maskApplication } from "../serializers/mask-application";
import { pricingInWords } from "./pricing-words";

const options = { en: en.options, es: es.options } as Record<Locale, Record<string, Record<string, string>>>;

// 2026-12: pricing, business type, titles and the signature time in the merchant's words.
export const AGREEMENT_VERSION = "2026-12";

type Json = LooseJson;

export const agreementCopy = {
  en: {
    title: "Merchant Processing Agreement",
    intro: (isv: string, merchant: string) =>
      `This agreement is between ${merchant} ("Merchant") and the payment services provider offered through ${isv}. It covers card and ACH payment processing under the pricing below.`,
    business: "Business",
    owners: "Owners",
    bank: "Settlement account",
    device: "Terminal",
    deviceLine: (name: string, price: string | null, isv: string) =>
      price
        ? `${name}: a one-time price of ${price}, supplied and billed by ${isv} (not a monthly fee).`
        : `${name}, supplied by ${isv}.`,
    pricing: "Pricing",
    terms: "Terms",
    pricingNone: "Pricing as agreed with your software provider.",
    termLines: [
      "Merchant will accept payments only for the goods and services described in this application.",
      "Funds are settled to the account above; Merchant authorizes credits and debits to it for settlements, refunds, chargebacks and fees.",
      "Merchant will keep card data secure and will never store full card numbers.",
      "Either party may end this agreement with 30 days' written notice.",
      "Merchant confirms that the information in this application is true and complete.",
    ],
    signedBy: "Signed by",
    at: "on",
    ip: "from IP address",
    version: "Version",
    notSigned: "Not signed yet",
  },
  es: {
    title: "Contrato de procesamiento para comercios",
    intro: (isv: string, merchant: string) =>
      `Este contrato se celebra entre ${merchant} (el "Comercio") y el proveedor de servicios de pago ofrecido a través de ${isv}. Cubre el procesamiento de pagos con tarjeta y ACH con los precios indicados abajo.`,
    business: "Negocio",
    owners: "Propietarios",
    bank: "Cuenta de liquidación",
    device: "Terminal",
    deviceLine: (name: string, price: string | null, isv: string) =>
      price
        ? `${name}: un precio único de ${price}, suministrado y cobrado por ${isv} (no es una cuota mensual).`
        : `${name}, suministrado por ${isv}.`,
    pricing: "Precios",
    terms: "Condiciones",
    pricingNone: "Precios según lo acordado con su proveedor de software.",
    termLines: [
      "El Comercio aceptará pagos solo por los bienes y servicios descritos en esta solicitud.",
      "Los fondos se liquidan en la cuenta indicada; el Comercio autoriza abonos y cargos en ella por liquidaciones, reembolsos, contracargos y comisiones.",
      "El Comercio mantendrá seguros los datos de tarjetas y nunca guardará números de tarjeta completos.",
      "Cualquiera de las partes puede terminar este contrato con 30 días de aviso por escrito.",
      "El Comercio confirma que la información de esta solicitud es verdadera y completa.",
    ],
    signedBy: "Firmado por",
    at: "el",
    ip: "desde la dirección IP",
    version: "Versión",
    notSigned: "Aún sin firmar",
  },
};

/** The effective pricing: the ISV's defaults for the merchant's enabled types, with its overrides. */
export function effectivePricing(
  defaultCapabilities: Json,
  capabilities: Json | undefined,
): Record<string, Record<string, string>> {
  const types: string[] = capabilities?.types ?? defaultCapabilities?.types ?? [];
  const out: Record<string, Record<string, string>> = {};
  for (const type of types)
    out[type] = { ...(defaultCapabilities?.options?.[type] ?? {}), ...(capabilities?.options?.[type] ?? {}) };
  return out;
}

export type AgreementDocument = { title: string; sections: { heading: string; lines: string[] }[]; version: string };

/** The agreement generated from the application and the pricing (masked: no full TIN or account number). */
export function buildAgreement(input: {
  locale: Locale;
  isvName: string;
  application: Json;
  defaultCapabilities: Json;
  /** The terminal chosen from the ISV's catalog, with its one-time price in cents when it has one. */
  device?: { name: string; price?: number } | null;
}): AgreementDocument {
  const t = agreementCopy[input.locale];
  const word = (field: string, value: unknown) =>
    typeof value === "string" ? (options[input.locale][field]?.[value] ?? value) : "";
  const app = maskApplication(input.application) as Json;
  const name = app.legal_business_name ?? "";
  const addr = (a: Json | undefined) => (a ? `${a.address}, ${a.city}, ${a.state} ${a.zip}` : "");
  const owners = ownerKeys
    .filter((k) => app[k])
    .map(
      (k) =>
        `${app[k].first_name} ${app[k].last_name}, ${word("job_title", app[k].job_title)}, ${app[k].ownership_percentage} %`,
    );
  const pricing = effectivePricing(input.defaultCapabilities, app.capabilities);
  const pricingLines = pricingInWords(pricing, input.locale).flatMap((m) => [
    `${m.name}:`,
    ...m.lines.map((l) => `  ${l}`),
  ]);
  return {
    title: t.title,
    version: AGREEMENT_VERSION,
    sections: [
      { heading: "", lines: [t.intro(input.isvName, name)] },
      {
        heading: t.business,
        lines: [
          name,
          app.doing_business_as ? `DBA ${app.doing_business_as}` : "",
          [word("business_type", app.business_type), [app.tin_type, app.tin].filter(Boolean).join(" ")]
            .filter(Boolean)
            .join(" · "),
          addr(app.legal_business_address),
        ].filter(Boolean),
      },
      { heading: t.owners, lines: owners },
      {
        heading: t.bank,
        lines: [
          `${app.bank_account?.bank_name ?? ""} · ${app.bank_account?.routing_number ?? ""} · ${app.bank_account?.account_number ?? ""}`,
        ],
      },
      ...(input.device
        ? [
            {
              heading: t.device,
              lines: [
                t.deviceLine(
                  input.device.name,
                  input.device.price !== undefined ? formatCents(input.device.price, intlLocale(input.locale)) : null,
                  input.isvName,
                ),
              ],
            },
          ]
        : []),
      { heading: t.pricing, lines: pricingLines.length ? pricingLines : [t.pricingNone] },
      { heading: t.terms, lines: t.termLines },
    ],
  };
}

/** The ISV's and the merchant's rows an agreement is made of. */
export type AgreementMerchant = { application: Json; defaultCapabilities: Json; deviceCatalogId?: string | null };
export type AgreementIsv = { defaults: unknown; settings?: unknown };

/** A merchant's agreement as its rows generate it, in one language (its catalog terminal and price included). */
export function agreementFor(merchant: AgreementMerchant, isv: AgreementIsv, locale: Locale) {
  const isvName = (isv.defaults as { display_name?: string } | null)?.display_name ?? "";
  const catalog = (isv.settings as { devices?: { id: string; name: string; price?: number }[] } | null)?.devices;
  const chosen = merchant.deviceCatalogId ? catalog?.find((d) => d.id === merchant.deviceCatalogId) : undefined;
  return buildAgreement({
    locale,
    isvName,
    application: merchant.application,
    defaultCapabilities: merchant.defaultCapabilities,
    device: chosen ? { name: chosen.name, price: chosen.price } : null,
  });
}

/** SHA-256 of the exact text of an agreement: stored with the signature, checked on submit. */
export function agreementDigest(doc: AgreementDocument): string {
  return createHash("sha256").update(JSON.stringify(doc)).digest("hex");
}

export function signatureLine(locale: Locale, signature: { name: string; signed_at: string; ip: string }) {
  const t = agreementCopy[locale];
  const when = new Intl.DateTimeFormat(intlLocale(locale), {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(signature.signed_at));
  return `${t.signedBy} ${signature.name} ${t.at} ${when} (UTC) ${t.ip} ${signature.ip}`;
}
