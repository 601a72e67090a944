import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from "pdf-lib";

import { hexChannels, textOn } from "../branding/contrast";
import type { LogoImage } from "./logo";

// The one PDF layout every document uses (monthly statements, the merchant agreement): US Letter,
// the ISV's colour band with its logo (or its monogram) and name on every page, headings, wrapped
// paragraphs, tables whose header repeats after a page break, and "Page X of Y" with a footer line
// on every page.

// The standard fonts cover Latin-1 (English and Spanish); anything else becomes "?".
export const latin1 = (s: string) => s.replace(/[^\x20-\x7E\xA0-\xFF]/g, "?");

const ink = rgb(0.06, 0.09, 0.16);
export const muted = rgb(0.35, 0.4, 0.47);
const W = 612;
const H = 792;
const M = 48;
const BAND = 44;
const BOTTOM = 56;

export type Column = { label: string; width: number; align?: "right" };

export type Branding = { display_name: string; primary_color: string };

export async function brandedDocument(options: {
  title: string;
  branding: Branding;
  logo: LogoImage | null;
  /** Small text at the band's right (the document and period). */
  headerRight: string;
  /** Small text at the left of every page's footer. */
  footer: string;
  pageLabel: (n: number, of: number) => string;
}) {
  const { branding } = options;
  const pdf = await PDFDocument.create();
  pdf.setTitle(latin1(options.title));
  pdf.setProducer(latin1(branding.display_name));
  pdf.setCreator(latin1(branding.display_name));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const primary = rgb(...hexChannels(branding.primary_color));
  const onPrimary = rgb(...hexChannels(textOn(branding.primary_color)));
  let logo: PDFImage | null = null;
  if (options.logo) {
    // A file that says it is a PNG or JPEG but is not one is treated as no logo.
    logo = await (
      options.logo.format === "png" ? pdf.embedPng(options.logo.bytes) : pdf.embedJpg(options.logo.bytes)
    ).catch(() => null);
  }

  let page = undefined as unknown as PDFPage; // set by newPage() before any use
  let y = 0;
  const text = (p: PDFPage, value: string, x: number, at: number, size: number, f: PDFFont = font, color = ink) =>
    p.drawText(latin1(value), { x, y: at, size, font: f, color });

  const band = (p: PDFPage) => {
    p.drawRectangle({ x: 0, y: H - BAND, width: W, height: BAND, color: primary });
    let x = M;
    if (logo) {
      // On a white plate, so a dark logo stays visible on a dark brand colour.
      const scale = Math.min(28 / logo.height, 120 / logo.width);
      const w = logo.width * scale;
      const h = logo.height * scale;
      p.drawRectangle({ x: x - 4, y: H - BAND / 2 - h / 2 - 3, width: w + 8, height: h + 6, color: rgb(1, 1, 1) });
      p.drawImage(logo, { x, y: H - BAND / 2 - h / 2, width: w, height: h });
      x += w + 14;
    } else {
      // The monogram: the name's first letter in a circle of the band's text colour.
      const initial = latin1(branding.display_name.trim().charAt(0).toUpperCase() || "?");
      p.drawCircle({ x: x + 13, y: H - BAND / 2, size: 13, color: onPrimary });
      text(p, initial, x + 13 - bold.widthOfTextAtSize(initial, 14) / 2, H - BAND / 2 - 5, 14, bold, primary);
      x += 36;
    }
    text(p, branding.display_name, x, H - 28, 14, bold, onPrimary);
    const right = latin1(options.headerRight);
    text(p, right, W - M - font.widthOfTextAtSize(right, 10), H - 27, 10, font, onPrimary);
  };
  const newPage = () => {
    page = pdf.addPage([W, H]);
    band(page);
    y = H - BAND - 28;
  };
  const ensure = (height: number, onBreak?: () => void) => {
    if (y - height < BOTTOM) {
      newPage();
      onBreak?.();
    }
  };

  const doc = {
    font,
    bold,
    primary,
    get page() {
      return page;
    },
    get y() {
      return y;
    },
    set y(value: number) {
      y = value;
    },
    /** One line at the left margin, moving down by `gap`. */
    line(value: string, size = 10, f: PDFFont = font, color = ink, gap = size * 1.45) {
      ensure(size + 4);
      text(page, value, M, y, size, f, color);
      y -= gap;
    },
    heading(value: string) {
      ensure(40);
      y -= 8;
      text(page, value, M, y, 13, bold, primary);
      y -= 20;
    },
    /** Text wrapped to the page's width, breaking pages as needed. */
    paragraph(value: string, size = 10, f: PDFFont = font, indent = 0) {
      const width = W - 2 * M - indent;
      let line = "";
      const flush = () => {
        ensure(size + 4);
        text(page, line, M + indent, y, size, f);
        y -= size * 1.45;
        line = "";
      };
      for (const word of latin1(value).split(/(\s+)/)) {
        if (f.widthOfTextAtSize(line + word, size) > width && line.trim()) flush();
        line += line === "" ? word.trimStart() : word;
      }
      if (line.trim()) flush();
    },
    /** A table: a header row (repeated at the top of each new page), then the rows; long cells end in ".". */
    table(columns: Column[], rows: string[][]) {
      const row = (values: string[], f: PDFFont, color = ink) => {
        let x = M;
        columns.forEach((c, i) => {
          const size = 9.5;
          let shown = latin1(values[i] ?? "");
          while (shown.length > 1 && f.widthOfTextAtSize(shown, size) > c.width - 6) shown = `${shown.slice(0, -2)}.`;
          const w = f.widthOfTextAtSize(shown, size);
          text(page, shown, c.align === "right" ? x + c.width - 6 - w : x, y, size, f, color);
          x += c.width;
        });
        y -= 14;
      };
      const header = () => {
        row(
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
        row(values, font);
      }
      y -= 6;
    },
    /** Page numbers and the footer on every page, then the file. */
    async finish() {
      const pages = pdf.getPages();
      pages.forEach((p, i) => {
        const label = latin1(options.pageLabel(i + 1, pages.length));
        text(p, label, W - M - font.widthOfTextAtSize(label, 9), 30, 9, font, muted);
        text(p, options.footer, M, 30, 9, font, muted);
      });
      return pdf.save();
    },
  };
  newPage();
  return doc;
}
