import type { StatementRow } from "../db/schema";
import { intlLocale, type Locale } from "../i18n/locales";
import { formatCents } from "../money";
import { brandName } from "../payments/brands";
import { feeLineWords } from "../statements/fee-line-words";
import { periodStart } from "../statements/period";
import { brandedDocument, type Branding, muted } from "./document";
import type { LogoImage } from "./logo";

// The monthly statement as a PDF (docs/reference.md section 11): branded with the ISV's name and colours,
// the merchant's business name and MID, the period, the totals, fees by pricing model, card brands,
// daily totals and every charge and refund, with the table header repeated on each page and
// "Page X of Y" on every page.

const copy = {
  en: {
    title: "Monthly statement",
    preview: "preview: the month has not ended, these figures will change",
    mid: "Merchant ID",
    processorMid: "Processor MID",
    period: "Period",
    summary: "Summary",
    gross: "Gross volume",
    refunds: "Refunds",
    fees: "Fees",
    platformFee: (isv: string) => `${isv} fee`,
    net: "Net",
    charges: "Charges",
    feesByModel: "Fees by pricing model",
    description: "Description",
    count: "Count",
    amount: "Amount",
    brands: "Card brands",
    brand: "Brand",
    volume: "Volume",
    daily: "Daily totals",
    date: "Date",
    transactions: "Charges and refunds",
    type: "Type",
    card: "Card",
    fee: "Fee",
    charge: "Charge",
    refund: "Refund",
    returned: "ACH return",
    returns: "ACH returns",
    reversal: "Return reversed",
    reversals: "Reversed returns",
    payouts: "Payouts to your bank",
    disputes: "Disputes",
    disputeAmount: "Taken",
    disputeBack: "Won back",
    disputeStatuses: { needs_response: "Needs your answer", under_review: "Under review", won: "Won", lost: "Lost" },
    arrival: "Arrives",
    status: "Status",
    payoutStatuses: {
      pending: "Pending",
      in_transit: "On its way",
      paid: "Paid",
      failed: "Refused by the bank",
      held: "Held",
    },
    page: (n: number, of: number) => `Page ${n} of ${of}`,
  },
  es: {
    title: "Estado de cuenta mensual",
    preview: "vista previa: el mes no ha terminado, estas cifras cambiarán",
    mid: "ID de comercio",
    processorMid: "MID del procesador",
    period: "Periodo",
    summary: "Resumen",
    gross: "Volumen bruto",
    refunds: "Reembolsos",
    fees: "Comisiones",
    platformFee: (isv: string) => `Comisión de ${isv}`,
    net: "Neto",
    charges: "Cargos",
    feesByModel: "Comisiones por modelo de precios",
    description: "Descripción",
    count: "Cantidad",
    amount: "Importe",
    brands: "Marcas de tarjeta",
    brand: "Marca",
    volume: "Volumen",
    daily: "Totales diarios",
    date: "Fecha",
    transactions: "Cargos y reembolsos",
    type: "Tipo",
    card: "Tarjeta",
    fee: "Comisión",
    charge: "Cargo",
    refund: "Reembolso",
    returned: "Devolución ACH",
    returns: "Devoluciones ACH",
    reversal: "Devolución revertida",
    reversals: "Devoluciones revertidas",
    payouts: "Transferencias a su banco",
    disputes: "Disputas",
    disputeAmount: "Retenido",
    disputeBack: "Recuperado",
    disputeStatuses: {
      needs_response: "Espera su respuesta",
      under_review: "En revisión",
      won: "Ganada",
      lost: "Perdida",
    },
    arrival: "Llega",
    status: "Estado",
    payoutStatuses: {
      pending: "Pendiente",
      in_transit: "En camino",
      paid: "Pagada",
      failed: "Rechazada por el banco",
      held: "Retenida",
    },
    page: (n: number, of: number) => `Página ${n} de ${of}`,
  },
} satisfies Record<Locale, unknown>;

export async function statementPdf(input: {
  statement: StatementRow;
  branding: Branding;
  logo: LogoImage | null;
  business: string;
  gatewayMerchantId: string | null;
  locale: Locale;
}) {
  const { statement: s, locale } = input;
  const t = copy[locale];
  const intl = intlLocale(locale);
  const money = (cents: number) => formatCents(cents, intl);
  const day = (iso: string) =>
    new Intl.DateTimeFormat(intl, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(
      new Date(iso),
    );
  const periodName = new Intl.DateTimeFormat(intl, { year: "numeric", month: "long", timeZone: "UTC" }).format(
    periodStart(s.period),
  );

  const doc = await brandedDocument({
    title: `${t.title} ${s.period}`,
    branding: input.branding,
    logo: input.logo,
    headerRight: `${t.title} · ${periodName}`,
    footer: `${input.business} · ${s.period}`,
    pageLabel: t.page,
  });
  const { heading, table } = doc;

  doc.line(input.business, 16, doc.bold, undefined, 18);
  // The merchant's id as every other surface names it (mer_…), then the processor's MID (gw_…) a
  // merchant may be asked for by its processor's support.
  doc.line(
    `${t.mid}: ${s.merchantId}${input.gatewayMerchantId ? ` · ${t.processorMid}: ${input.gatewayMerchantId}` : ""}`,
    10,
    doc.font,
    muted,
    14,
  );
  doc.line(`${t.period}: ${periodName}${s.final ? "" : ` (${t.preview})`}`, 10, doc.font, muted, 20);

  const disputesTaken = s.disputes.filter((d) => d.opened_in_period);
  const disputesBack = s.disputes.filter((d) => d.won_in_period);
  heading(t.summary);
  table(
    [
      { label: t.description, width: 300 },
      { label: t.amount, width: 216, align: "right" },
    ],
    [
      [`${t.gross} (${s.chargeCount} ${t.charges.toLowerCase()})`, money(s.grossVolume)],
      [t.refunds, money(-s.refunds)],
      ...(s.returnCount > 0 ? [[`${t.returns} (${s.returnCount})`, money(-s.returns)]] : []),
      ...(s.reversalCount > 0 ? [[`${t.reversals} (${s.reversalCount})`, money(s.reversals)]] : []),
      [t.fees, money(-s.fees)],
      // The ISV's platform fees (section 19), named for the ISV.
      ...(s.platformFees !== 0 ? [[t.platformFee(input.branding.display_name), money(-s.platformFees)]] : []),
      // The disputes' amounts taken in the month and the won ones' paid back (their fees are among the fees).
      ...(disputesTaken.length > 0
        ? [[`${t.disputes} (${disputesTaken.length})`, money(-disputesTaken.reduce((sum, d) => sum + d.amount, 0))]]
        : []),
      ...(disputesBack.length > 0
        ? [[`${t.disputeBack} (${disputesBack.length})`, money(disputesBack.reduce((sum, d) => sum + d.amount, 0))]]
        : []),
      [t.net, money(s.net)],
    ],
  );

  heading(t.feesByModel);
  table(
    [
      { label: t.description, width: 316 },
      { label: t.count, width: 80, align: "right" },
      { label: t.amount, width: 120, align: "right" },
    ],
    s.feeLines.map((l) => [feeLineWords(l.description, locale), String(l.count), money(l.amount)]),
  );

  heading(t.brands);
  table(
    [
      { label: t.brand, width: 236 },
      { label: t.count, width: 140, align: "right" },
      { label: t.volume, width: 140, align: "right" },
    ],
    s.cardBrands.map((b) => [brandName(b.brand), String(b.count), money(b.volume)]),
  );

  heading(t.daily);
  table(
    [
      { label: t.date, width: 116 },
      { label: t.charges, width: 60, align: "right" },
      { label: t.volume, width: 90, align: "right" },
      { label: t.refunds, width: 80, align: "right" },
      { label: t.returns, width: 90, align: "right" },
      { label: t.fees, width: 80, align: "right" },
    ],
    s.dailyTotals.map((d) => [
      day(d.date),
      String(d.charges),
      money(d.volume),
      money(d.refunds),
      money(d.returns ?? 0),
      money(d.fees),
    ]),
  );

  // The month's payouts (docs/reference.md section 16), as they stood when the statement was made.
  if (s.payouts.length > 0) {
    heading(t.payouts);
    table(
      [
        { label: t.date, width: 90 },
        { label: "ID", width: 186 },
        { label: t.status, width: 120 },
        { label: t.arrival, width: 80 },
        { label: t.amount, width: 80, align: "right" },
      ],
      s.payouts.map((p) => [
        day(p.created_at),
        p.id,
        t.payoutStatuses[p.status],
        p.arrival_date ? day(`${p.arrival_date}T12:00:00Z`) : "",
        money(p.amount),
      ]),
    );
  }

  // The month's disputes (docs/reference.md section 16): what each took (amount and fee), what came back.
  if (s.disputes.length > 0) {
    heading(t.disputes);
    table(
      [
        { label: t.date, width: 80 },
        { label: "ID", width: 186 },
        { label: t.status, width: 90 },
        { label: t.disputeAmount, width: 60, align: "right" },
        { label: t.fee, width: 50, align: "right" },
        { label: t.disputeBack, width: 60, align: "right" },
      ],
      s.disputes.map((d) => [
        day(d.created_at),
        d.id,
        t.disputeStatuses[d.status],
        d.opened_in_period ? money(d.amount) : "",
        d.opened_in_period ? money(d.fee) : "",
        d.won_in_period ? money(d.amount) : "",
      ]),
    );
  }

  heading(t.transactions);
  table(
    [
      { label: t.date, width: 80 },
      { label: t.type, width: 56 },
      { label: "ID", width: 186 },
      { label: t.card, width: 86 },
      { label: t.amount, width: 62, align: "right" },
      { label: t.fee, width: 46, align: "right" },
    ],
    s.items.map((i) => [
      day(i.created_at),
      i.kind === "charge" ? t.charge : i.kind === "refund" ? t.refund : i.kind === "return" ? t.returned : t.reversal,
      i.id,
      i.card_last_4 ? `${i.card_brand === "amex" ? "Amex" : brandName(i.card_brand)} ${i.card_last_4}` : "",
      money(i.kind === "charge" || i.kind === "return_reversal" ? i.amount : -i.amount),
      i.kind === "charge" ? money(i.fee) : "",
    ]),
  );

  return doc.finish();
}
