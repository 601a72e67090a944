import { type Db } from "../../db/types";
import { businessName, merchantLocale } from "../../merchants/facts";
import { documentLogo } from "../../pdf/logo";
import { statementPdf } from "../../pdf/statement-pdf";
import { statementCsv } from "../../statements/statement-csv";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import type { Scope } from "../scope";
import { findScopedMerchant } from "../scope";
import { findStatement } from "./find-statement";

/** A statement as a file (the API's download and the dashboard's button): the branded PDF, or CSV. */
export async function downloadStatement(
  db: Db,
  scope: Scope,
  merchantId: string,
  statementId: string,
  format: "pdf" | "csv",
) {
  const merchant = await findScopedMerchant(db, scope, merchantId);
  const statement = await findStatement(db, merchant.id, statementId);
  const filename = `statement-${merchant.id}-${statement.period}.${format}`;
  const isv = await getAccount(db, merchant.isvAccountId);
  const branding = brandOf(isv);
  if (format === "csv")
    return { body: statementCsv(statement, branding.display_name), contentType: "text/csv; charset=utf-8", filename };
  const bytes = await statementPdf({
    statement,
    branding,
    logo: await documentLogo(branding),
    business: businessName(merchant) || merchant.id,
    gatewayMerchantId: merchant.paymentKeys?.gateway_merchant_id ?? null,
    locale: merchantLocale(merchant),
  });
  return { body: new Uint8Array(bytes), contentType: "application/pdf", filename };
}
