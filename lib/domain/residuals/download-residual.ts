import { inArray } from "drizzle-orm";

import { platformBranding } from "../../branding/platform";
import { merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { type Locale } from "../../i18n/locales";
import { businessName } from "../../merchants/facts";
import { residualPdf } from "../../pdf/residual-pdf";
import { residualCsv } from "../../residuals/residual-csv";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { allResidualLines, findResidual } from "./find-residual";

/**
 * A residual as a file (the API's download and the dashboard's buttons): the PDF in the platform's
 * brand addressed to the ISV, or the CSV; both from the residual and its lines as they were made.
 */
export async function downloadResidual(
  db: DbOrTx,
  isvAccountId: string,
  id: string,
  format: "pdf" | "csv",
  locale: Locale = "en",
) {
  const residual = await findResidual(db, isvAccountId, id);
  const rows = await allResidualLines(db, residual.id);
  const ids = rows.map((l) => l.merchantId);
  const names = new Map(
    ids.length
      ? (await db.select().from(merchants).where(inArray(merchants.id, ids))).map((m) => [
          m.id,
          businessName(m) || m.id,
        ])
      : [],
  );
  const lines = rows.map((l) => ({ ...l, business: names.get(l.merchantId) ?? l.merchantId }));
  const filename = `residual-${residual.period}-${residual.id}.${format}`;
  if (format === "csv") return { body: residualCsv(residual, lines), contentType: "text/csv; charset=utf-8", filename };
  const isv = await getAccount(db, isvAccountId);
  const bytes = await residualPdf({
    residual,
    lines,
    isvName: brandOf(isv).display_name,
    branding: platformBranding,
    locale,
  });
  return { body: new Uint8Array(bytes), contentType: "application/pdf", filename };
}
