import { agreementCopy, type AgreementDocument } from "../agreement/agreement-text";
import type { Locale } from "../i18n/locales";
import { brandedDocument, type Branding, muted } from "./document";
import type { LogoImage } from "./logo";

const pageLabel = {
  en: (n: number, of: number) => `Page ${n} of ${of}`,
  es: (n: number, of: number) => `Página ${n} de ${of}`,
} satisfies Record<Locale, unknown>;

/** The merchant agreement (signed or not yet) as a PDF, on the same branded layout as statements. */
export async function agreementPdf(input: {
  document: AgreementDocument;
  branding: Branding;
  logo: LogoImage | null;
  signature: string | null;
  locale: Locale;
}) {
  const { document: agreement, locale } = input;
  const t = agreementCopy[locale];
  const doc = await brandedDocument({
    title: agreement.title,
    branding: input.branding,
    logo: input.logo,
    headerRight: agreement.title,
    footer: `${agreement.title} · ${t.version} ${agreement.version}`,
    pageLabel: pageLabel[locale],
  });
  doc.paragraph(agreement.title, 18, doc.bold);
  doc.line(`${t.version} ${agreement.version}`, 9, doc.font, muted, 16);
  for (const section of agreement.sections) {
    if (section.heading) doc.heading(section.heading);
    for (const line of section.lines) {
      // Lines indented in the text (a pricing model's prices) are indented on the page.
      const indent = /^\s+/.exec(line)?.[0].length ?? 0;
      doc.paragraph(line.trim(), 10, doc.font, indent * 6);
    }
  }
  doc.y -= 12;
  doc.paragraph(input.signature ?? t.notSigned, 10, doc.bold);
  return doc.finish();
}
