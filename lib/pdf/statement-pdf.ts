import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { hexChannels, textOn } from "../branding/contrast";
import { formatCents } from "../money";
import { brandName } from "../payments/brands";
import { intlLocale, type Locale } from "../i18n/locales";
import type { StatementRow } from "../serializers/statement";

// The monthly statement as a PDF (CONTRACT.md section 11): branded with the ISV's name and colours,
// the merchant's business name and MID, the period, the totals, fees by pricing model, card brands,
// daily totals and every charge and refund, with the table header repeated on each page and
// "Page X of Y" on every page.

const copy = {
  en: {
    title: "Monthly statement",
    mid: "Merchant ID",
    period: "Period",
    summary: "Summary",
    gross: "Gross volume",
    refunds: "Refunds",
    fees: "Fees",
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
    page: (n: number, of: number) => `Page ${n} of ${of}`,
  },
  es: {
    title: "Estado de cuenta mensual",
    mid: "ID de comercio",
    period: "Periodo",
    summary: "Resumen",
    gross: "Volumen bruto",
    refunds: "Reembolsos",
    fees: "Comisiones",
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
    page: (n: number, of: number) => `Página ${n} de ${of}`,
  },
} satisfies Record<Locale, unknown>;

// The standard fonts cover Latin-1 (English and Spanish); anything else becomes "?".
const latin1 = (s: string) => s.replace(/[^\x20-\x7E\xA0-\xFF]/g, "?");
const ink = rgb(0.06, 0.09, 0.16);
const muted = rgb(0.35, 0.4, 0.47);
const W = 612;
const H = 792;
const M = 48;

type Column = { label: string; width: number; align?: "right" };

export async function statementPdf(input: {
  statement: StatementRow;
  branding: { display_name: string; primary_color: string; secondary_color?: string };
  business: string;
  gatewayMerchantId: string | null;
  locale: Locale;
}) {
  const { statement: s, branding, locale } = input;
  const t = copy[locale];
  const intl = intlLocale(locale);
  const money = (cents: number) => formatCents(cents, intl);
  const day = (iso: string) => new Intl.DateTimeFormat(intl, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(iso));
  const [year, month] = s.period.split("-").map(Number);
  const periodName = new Intl.DateTimeFormat(intl, { year: "numeric", month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(year!, month! - 1, 1)));

  const pdf = await PDFDocument.create();
  pdf.setTitle(`${t.title} ${s.period}`);
  pdf.setProducer(branding.display_name);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const primary = rgb(...hexChannels(branding.primary_color));
  const onPrimary = rgb(...hexChannels(textOn(branding.primary_color)));

  let page: PDFPage = undefined as unknown as PDFPage; // set by newPage() before any use
  let y = 0;
  const text = (p: PDFPage, value: string, x: number, at: number, size: number, f: PDFFont = font, color = ink) =>
    p.drawText(latin1(value), { x, y: at, size, font: f, color });
  const newPage = () => {
    page = pdf.addPage([W, H]);
    page.drawRectangle({ x: 0, y: H - 44, width: W, height: 44, color: primary });
    text(page, branding.display_name, M, H - 28, 14, bold, onPrimary);
    const right = `${t.title} · ${periodName}`;
    text(page, right, W - M - font.widthOfTextAtSize(latin1(right), 10), H - 27, 10, font, onPrimary);
    y = H - 72;
  };
  const ensure = (height: number, onBreak?: () => void) => {
    if (y - height < 56) {
      newPage();
      onBreak?.();
    }
  };
  const heading = (value: string) => {
    ensure(40);
    y -= 8;
    text(page, value, M, y, 13, bold, primary);
    y -= 20;
  };
  const row = (columns: Column[], values: string[], f: PDFFont = font, color = ink) => {
    let x = M;
    columns.forEach((c, i) => {
      const value = latin1(values[i] ?? "");
      const size = 9.5;
      let shown = value;
      while (shown.length > 1 && f.widthOfTextAtSize(shown, size) > c.width - 6) shown = `${shown.slice(0, -2)}.`;
      const w = f.widthOfTextAtSize(shown, size);
      text(page, shown, c.align === "right" ? x + c.width - 6 - w : x, y, size, f, color);
      x += c.width;
    });
    y -= 14;
  };
  const table = (columns: Column[], rows: string[][]) => {
    const header = () => {
      row(
        columns,
        columns.map((c) => c.label),
        bold,
        muted,
      );
      page.drawLine({ start: { x: M, y: y + 10 }, end: { x: W - M, y: y + 10 }, thickness: 0.5, color: muted });
    };
    ensure(30);
    header();
    for (const values of rows) {
      ensure(14, header);
      row(columns, values);
    }
    y -= 6;
  };

  newPage();
  text(page, input.business, M, y, 16, bold);
  y -= 18;
  text(page, `${t.mid}: ${input.gatewayMerchantId ?? s.merchantId}`, M, y, 10, font, muted);
  y -= 14;
  text(page, `${t.period}: ${periodName}`, M, y, 10, font, muted);
  y -= 20;

  heading(t.summary);
  table(
    [
      { label: t.description, width: 300 },
      { label: t.amount, width: 216, align: "right" },
    ],
    [
      [`${t.gross} (${s.chargeCount} ${t.charges.toLowerCase()})`, money(s.grossVolume)],
      [t.refunds, money(-s.refunds)],
      [t.fees, money(-s.fees)],
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
    s.feeLines.map((l) => [l.description, String(l.count), money(l.amount)]),
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
      { label: t.date, width: 136 },
      { label: t.charges, width: 80, align: "right" },
      { label: t.volume, width: 100, align: "right" },
      { label: t.refunds, width: 100, align: "right" },
      { label: t.fees, width: 100, align: "right" },
    ],
    s.dailyTotals.map((d) => [day(d.date), String(d.charges), money(d.volume), money(d.refunds), money(d.fees)]),
  );

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
      i.kind === "charge" ? t.charge : t.refund,
      i.id,
      i.card_last_4 ? `${i.card_brand === "amex" ? "Amex" : brandName(i.card_brand)} ${i.card_last_4}` : "",
      money(i.kind === "refund" ? -i.amount : i.amount),
      i.kind === "charge" ? money(i.fee) : "",
    ]),
  );

  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    const label = t.page(i + 1, pages.length);
    text(p, label, W - M - font.widthOfTextAtSize(latin1(label), 9), 30, 9, font, muted);
    text(p, `${input.business} · ${s.period}`, M, 30, 9, font, muted);
  });
  return pdf.save();
}
