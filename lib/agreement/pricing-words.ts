import { intlLocale, type Locale } from "../i18n/locales";

// A merchant's pricing as the merchant reads it, in its language ("Visa, Mastercard, Discover
// credit: 2.90 % + $0.30 per transaction"), for the agreement and the dashboard. Each line says
// what the fee engine (lib/domain/fees/compute-fee.ts) charges: a class's own fields when given,
// else the model's fallback fields, exactly as the engine reads them.

type Options = Record<string, string | undefined>;

const words = {
  en: {
    models: {
      flat_rate: "Flat rate",
      two_tiered: "Two-tier pricing",
      tiered: "Tiered pricing",
      pass_through_ic: "Interchange plus (pass-through)",
      cash_discount: "Cash discount",
      ach: "Bank payments (ACH)",
    } as Record<string, string>,
    vmdCredit: "Visa, Mastercard, Discover credit",
    vmdDebit: "Visa, Mastercard, Discover debit",
    vmd: "Visa, Mastercard, Discover",
    amex: "American Express",
    present: "card present",
    notPresent: "card not present (online or keyed)",
    tiers: { qualified: "qualified", mid_qualified: "mid-qualified", non_qualified: "non-qualified" },
    perTransaction: "per transaction",
    interchange: (what: string) => `${what}: interchange at cost, plus`,
    markup: "Processor markup on every card payment",
    cashDiscount: (rate: string) =>
      `Card prices include a ${rate} service charge that covers the processing fee; customers paying cash pay the listed price`,
    achPayment: "ACH payment",
    achPremium: "Premium ACH payment (extra)",
    achReturn: "Returned payment",
    achChargeback: "ACH chargeback",
    achReversal: "Reversal of a return",
    monthly: "Monthly fee",
    dailyBatch: "Daily batch fee (each day with ACH payments)",
    volumeDiscount: "Gross volume discount",
    premiumDiscount: "Premium discount",
    each: "each",
  },
  es: {
    models: {
      flat_rate: "Tarifa fija",
      two_tiered: "Precio de dos niveles",
      tiered: "Precio por niveles",
      pass_through_ic: "Intercambio más margen (traslado)",
      cash_discount: "Descuento por pago en efectivo",
      ach: "Pagos bancarios (ACH)",
    } as Record<string, string>,
    vmdCredit: "Crédito Visa, Mastercard, Discover",
    vmdDebit: "Débito Visa, Mastercard, Discover",
    vmd: "Visa, Mastercard, Discover",
    amex: "American Express",
    present: "tarjeta presente",
    notPresent: "tarjeta no presente (en línea o digitada)",
    tiers: { qualified: "calificada", mid_qualified: "semicalificada", non_qualified: "no calificada" },
    perTransaction: "por transacción",
    interchange: (what: string) => `${what}: intercambio al costo, más`,
    markup: "Margen del procesador en cada pago con tarjeta",
    cashDiscount: (rate: string) =>
      `Los precios con tarjeta incluyen un cargo por servicio de ${rate} que cubre la comisión de procesamiento; quien paga en efectivo paga el precio de lista`,
    achPayment: "Pago ACH",
    achPremium: "Pago ACH premium (adicional)",
    achReturn: "Pago devuelto",
    achChargeback: "Contracargo ACH",
    achReversal: "Reversión de una devolución",
    monthly: "Cuota mensual",
    dailyBatch: "Cuota diaria de lote (cada día con pagos ACH)",
    volumeDiscount: "Descuento por volumen bruto",
    premiumDiscount: "Descuento premium",
    each: "cada uno",
  },
} satisfies Record<Locale, unknown>;

const given = (v: string | undefined): v is string => v !== undefined && v !== "";

/** "2.90" → "2.90 %" (es: "2,90 %"); the decimal string is formatted exactly, never through a float. */
export function percentWords(value: string, locale: Locale) {
  const n = new Intl.NumberFormat(intlLocale(locale), { minimumFractionDigits: 2, maximumFractionDigits: 4 });
  return `${n.format(value as unknown as number)} %`;
}

/** "0.30" → "$0.30"; fees may carry hundredths of a cent ("0.0525" → "$0.0525"). */
export function dollarWords(value: string, locale: Locale) {
  const n = new Intl.NumberFormat(intlLocale(locale), {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  });
  return n.format(value as unknown as number);
}

/** One model's lines. */
export function modelPricingLines(model: string, o: Options, locale: Locale): string[] {
  const t = words[locale];
  const price = (rate: string | undefined, fixed: string | undefined) => {
    const parts = [
      given(rate) ? percentWords(rate, locale) : null,
      given(fixed) && !/^0+(\.0+)?$/.test(fixed) ? dollarWords(fixed, locale) : null,
    ].filter(Boolean);
    return parts.length
      ? `${parts.join(" + ")} ${t.perTransaction}`
      : `${percentWords("0", locale)} ${t.perTransaction}`;
  };
  const classes = [
    ["vmd_credit", t.vmdCredit],
    ["vmd_debit", t.vmdDebit],
    ["amex", t.amex],
  ] as const;
  switch (model) {
    case "flat_rate":
      return classes.map(
        ([k, label]) =>
          `${label}: ${price(given(o[`${k}_rate_percent`]) ? o[`${k}_rate_percent`] : o.rate_percent, given(o[`${k}_fee_fixed`]) ? o[`${k}_fee_fixed`] : o.fee_fixed)}`,
      );
    case "two_tiered":
      return (["vmd", "amex"] as const).flatMap((family) =>
        (["cp", "cnp"] as const).map(
          (where) =>
            `${t[family]}, ${where === "cp" ? t.present : t.notPresent}: ${price(o[`${family}_${where}_rate_percent`], o[`${family}_${where}_fee_fixed`])}`,
        ),
      );
    case "tiered":
      return (["qualified", "mid_qualified", "non_qualified"] as const).flatMap((tier) => {
        const short = tier === "qualified" ? "qual" : tier === "mid_qualified" ? "midq" : "nonq";
        return classes.map(([k, label]) => {
          const family = k === "amex" ? "amex" : "vmd";
          const kind = k === "vmd_debit" ? "debit" : "credit";
          const rateKey = `${family}_${short}_${kind}_rate_percent`;
          const legacy = !given(o[rateKey]);
          return `${label}, ${t.tiers[tier]}: ${price(legacy ? o[`${tier}_rate_percent`] : o[rateKey], legacy ? o[`${tier}_fee_fixed`] : o[`${family}_${short}_${kind}_fee_fixed`])}`;
        });
      });
    case "pass_through_ic":
      return [
        ...classes.map(
          ([k, label]) => `${t.interchange(label)} ${price(o[`${k}_discount_percent`], o[`${k}_fee_fixed`])}`,
        ),
        `${t.markup}: ${price(o.processor_markup_percent, o.transaction_fee_fixed)}`,
      ];
    case "cash_discount":
      return given(o.advantage_rate) ? [t.cashDiscount(percentWords(o.advantage_rate, locale))] : [];
    case "ach": {
      const fee = (label: string, v: string | undefined, suffix = "") =>
        given(v) ? [`${label}: ${dollarWords(v, locale)}${suffix}`] : [];
      const rate = (label: string, v: string | undefined) =>
        given(v) && !/^0+(\.0+)?$/.test(v) ? [`${label}: ${percentWords(v, locale)}`] : [];
      return [
        `${t.achPayment}: ${price(o.txn_fee_percent, o.txn_fee_fixed)}`,
        ...fee(t.achPremium, o.txn_premium_fee_fixed, ` ${t.perTransaction}`),
        ...fee(t.achReturn, o.return_fee_fixed, ` ${t.each}`),
        ...fee(t.achChargeback, o.chargeback_fee_fixed, ` ${t.each}`),
        ...fee(t.achReversal, o.return_reversal_fee, ` ${t.each}`),
        ...fee(t.dailyBatch, o.daily_batch_fee),
        ...fee(t.monthly, o.monthly_fee),
        ...rate(t.volumeDiscount, o.gross_volume_discount_rate),
        ...rate(t.premiumDiscount, o.premium_discount_rate),
      ];
    }
    default:
      return [];
  }
}

/** Every model the merchant has: its name, then its lines. */
export function pricingInWords(
  pricing: Record<string, Options>,
  locale: Locale,
): { model: string; name: string; lines: string[] }[] {
  return Object.entries(pricing).map(([model, options]) => ({
    model,
    name: words[locale].models[model] ?? model,
    lines: modelPricingLines(model, options, locale),
  }));
}
