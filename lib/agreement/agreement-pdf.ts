import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { AgreementDocument } from "./agreement-text";
import { hexChannels } from "../branding/contrast";

const hexToRgb = (hex: string) => rgb(...hexChannels(hex));

// The standard PDF fonts cover Latin-1: enough for English and Spanish; anything else becomes "?".
const latin1 = (s: string) => s.replace(/[^\x20-\x7E\xA0-\xFF]/g, "?");

/** The signed agreement as a PDF, branded with the ISV's name and primary colour. */
export async function agreementPdf(doc: AgreementDocument, branding: { display_name: string; primary_color: string }, signature: string | null) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  pdf.setProducer(branding.display_name);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([612, 792]);
  let y = 740;
  const margin = 56;
  const width = 612 - margin * 2;
  page.drawRectangle({ x: 0, y: 760, width: 612, height: 32, color: hexToRgb(branding.primary_color) });
  const write = (text: string, size: number, f = font) => {
    const words = latin1(text).split(/(\s+)/);
    let line = "";
    const flush = () => {
      if (y < 60) {
        page = pdf.addPage([612, 792]);
        y = 740;
      }
      page.drawText(line, { x: margin, y, size, font: f, color: rgb(0.06, 0.09, 0.16) });
      y -= size * 1.45;
      line = "";
    };
    for (const word of words) {
      if (f.widthOfTextAtSize(line + word, size) > width && line.trim()) flush();
      line += line === "" ? word.trimStart() : word;
    }
    if (line.trim()) flush();
  };
  write(latin1(branding.display_name), 10, bold);
  y -= 8;
  write(doc.title, 18, bold);
  write(`Version ${doc.version}`, 8);
  y -= 6;
  for (const section of doc.sections) {
    if (section.heading) {
      y -= 6;
      write(section.heading, 12, bold);
    }
    for (const line of section.lines) write(line, 10);
  }
  y -= 12;
  write(signature ?? "Not signed yet", 10, bold);
  return pdf.save();
}
