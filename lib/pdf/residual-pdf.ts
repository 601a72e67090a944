import type { ResidualLineRow, ResidualRow } from "../db/schema";
import { intlLocale, type Locale } from "../i18n/locales";
import { formatCents } from "../money";
import { periodStart } from "../statements/period";
import { brandedDocument, type Branding, muted } from "./document";

// A residual as a PDF (docs/reference.md section 19), in the platform's brand and addressed to the
// ISV: the month's figures, what it is paid or carries, and one line per merchant (the same rows as
// its CSV).

const copy = {
  en: {
    title: "Residual",
    to: "For",
    period: "Period",
    summary: "Summary",
    volume: "Volume",
    payments: "Payments",
    merchantFees: "Fees paid by your merchants",
    costs: "Costs (interchange, networks, processing)",
    margin: "Margin",
    share: (percent: number) => `Your share of the margin (${percent} %)`,
    platformFees: "Your platform fees",
    carriedIn: "Carried in from the month before",
    adjustments: "Adjustments",
    amount: "Residual",
    status: { pending: "To be paid to your bank account", paid: "Paid", carried: "Carried into next month" },
    merchants: "By merchant",
    merchant: "Merchant",
    fees: "Fees",
    colShare: "Share",
    colPlatform: "Platform fees",
    description: "Description",
    value: "Amount",
    none: "No merchant had activity this month.",
    page: (n: number, of: number) => `Page ${n} of ${of}`,
  },
  es: {
    title: "Residual",
    to: "Para",
    period: "Periodo",
    summary: "Resumen",
    volume: "Volumen",
    payments: "Pagos",
    merchantFees: "Comisiones pagadas por sus comercios",
    costs: "Costos (intercambio, redes, procesamiento)",
    margin: "Margen",
    share: (percent: number) => `Su parte del margen (${percent} %)`,
    platformFees: "Sus comisiones de plataforma",
    carriedIn: "Arrastrado del mes anterior",
    adjustments: "Ajustes",
    amount: "Residual",
    status: { pending: "Por pagar a su cuenta bancaria", paid: "Pagado", carried: "Se arrastra al mes siguiente" },
    merchants: "Por comercio",
    merchant: "Comercio",
    fees: "Comisiones",
    colShare: "Su parte",
    colPlatform: "Com. plataforma",
    description: "Concepto",
    value: "Importe",
    none: "Ningún comercio tuvo actividad este mes.",
    page: (n: number, of: number) => `Página ${n} de ${of}`,
  },
} as const;

export async function residualPdf(input: {
  residual: ResidualRow;
  lines: readonly (ResidualLineRow & { business: string })[];
  isvName: string;
  branding: Branding;
  locale: Locale;
}) {
  const { residual: r, locale } = input;
  const t = copy[locale];
  const intl = intlLocale(locale);
  const money = (cents: number) => formatCents(cents, intl);
  const periodName = new Intl.DateTimeFormat(intl, { year: "numeric", month: "long", timeZone: "UTC" }).format(
    periodStart(r.period),
  );
  const doc = await brandedDocument({
    title: `${t.title} ${r.period}`,
    branding: input.branding,
    logo: null,
    headerRight: `${t.title} · ${periodName}`,
    footer: `${input.isvName} · ${r.period}`,
    pageLabel: t.page,
  });
  const { heading, table } = doc;
  doc.line(`${t.to}: ${input.isvName}`, 16, doc.bold, undefined, 18);
  doc.line(`${t.period}: ${periodName} · ${r.id}`, 10, doc.font, muted, 20);

  heading(t.summary);
  table(
    [
      { label: t.description, width: 356 },
      { label: t.value, width: 160, align: "right" },
    ],
    [
      [t.volume, money(r.volume)],
      [t.payments, String(r.count)],
      [t.merchantFees, money(r.merchantFees)],
      [t.costs, money(-r.costs)],
      [t.margin, money(r.margin)],
      [t.share(r.revenueSharePercent), money(r.share)],
      [t.platformFees, money(r.platformFees)],
      ...(r.carriedIn !== 0 ? [[t.carriedIn, money(r.carriedIn)]] : []),
      ...(r.adjustments !== 0 ? [[t.adjustments, money(r.adjustments)]] : []),
      [t.amount, money(r.amount)],
      ["", t.status[r.status]],
    ],
  );

  heading(t.merchants);
  if (input.lines.length === 0) doc.line(t.none, 10, doc.font, muted, 16);
  else
    table(
      [
        { label: t.merchant, width: 130 },
        { label: t.volume, width: 72, align: "right" },
        { label: t.fees, width: 62, align: "right" },
        { label: t.margin, width: 60, align: "right" },
        { label: t.colShare, width: 56, align: "right" },
        { label: t.colPlatform, width: 78, align: "right" },
        { label: t.amount, width: 58, align: "right" },
      ],
      input.lines.map((l) => [
        l.business,
        money(l.volume),
        money(l.merchantFees),
        money(l.margin),
        money(l.share),
        money(l.platformFees),
        money(l.amount),
      ]),
    );
  return doc.finish();
}
