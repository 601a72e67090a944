import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** Each page's text, as a PDF reader extracts it. */
export async function pdfText(bytes: Uint8Array) {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  return pages;
}

export const ARTIFACTS = path.resolve("artifacts/documents");

/**
 * Renders every page to PNG with poppler's pdftoppm (installed by scripts/setup.sh and .ci/run) into
 * artifacts/documents/<name>-<page>.png, kept by CI, and answers the files written. A missing
 * pdftoppm fails the test: it is part of the set-up, not optional.
 */
export function pdfToPngs(bytes: Uint8Array, name: string, dpi = 60): string[] {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const old of readdirSync(ARTIFACTS)) if (old.startsWith(`${name}-`)) rmSync(path.join(ARTIFACTS, old));
  const pdfPath = path.join(ARTIFACTS, `${name}.pdf`);
  writeFileSync(pdfPath, bytes);
  execFileSync("pdftoppm", ["-png", "-r", String(dpi), pdfPath, path.join(ARTIFACTS, name)]);
  return readdirSync(ARTIFACTS)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith(".png"))
    .sort()
    .map((f) => path.join(ARTIFACTS, f));
}
