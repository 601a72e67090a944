import { messageOr, type Translator } from "@/lib/i18n/dynamic";
import { fieldLabel } from "@/lib/i18n/field-label";
import type { LooseJson } from "@/lib/loose-json";
import { requestNames } from "@/lib/onboarding/request-names";

/**
 * How the merchant page words underwriting's and verification's reasons: a reason by its code in the
 * reader's words, naming whom it is about (an operator's own message as written), and the person or
 * the business a check or a document is about. `root`: the catalogue's root translator.
 */
export function merchantWords(root: Translator, app: LooseJson, business: string) {
  const names = requestNames(app);
  return {
    reasonText: (field: string, code: string | null, message: string | null) =>
      (code ? messageOr(root, `underwriting.${code}`, names(field)) : null) ?? message ?? "",
    subjectName: (subject: string) =>
      subject === "merchant" ? business : names(`${subject}.`).name || fieldLabel(root, subject),
  };
}
