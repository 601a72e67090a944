import { desc, eq } from "drizzle-orm";

import { files, merchants } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { notFound } from "../../errors";
import { serializeFile } from "../../serializers/file";
import { serializeCheck } from "../../verification/checks";

/**
 * What the operator CLI shows of one merchant (`merchant show`): status, underwriting's last
 * decision and requests, each verification check and the documents. Any ISV's merchant: the
 * operator is the platform. Names and masked values only; never a document's bytes.
 */
export async function operatorMerchantView(db: DbOrTx, merchantId: string) {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  if (!row) throw notFound("merchant", merchantId);
  const documents = await db
    .select()
    .from(files)
    .where(eq(files.merchantId, merchantId))
    .orderBy(desc(files.createdAt));
  const underwriting = row.underwriting as { outcome?: string; reason?: string | null; decided_at?: string } | null;
  return {
    merchant_id: row.id,
    isv_account_id: row.isvAccountId,
    legal_business_name: (row.application.legal_business_name as string | undefined) ?? null,
    lead_onboarding_status: row.status,
    underwriting: underwriting
      ? {
          outcome: underwriting.outcome ?? null,
          reason: underwriting.reason ?? null,
          decided_at: underwriting.decided_at ?? null,
        }
      : null,
    requirements: row.requirements,
    verification: row.verification.map(serializeCheck),
    documents: documents.map(serializeFile),
  };
}

/** The same, as the CLI prints it for a person. */
export function operatorMerchantText(view: Awaited<ReturnType<typeof operatorMerchantView>>): string {
  const lines = [
    `${view.merchant_id}  ${view.legal_business_name ?? "(no name yet)"}  (ISV ${view.isv_account_id})`,
    `  status        ${view.lead_onboarding_status}`,
  ];
  if (view.underwriting)
    lines.push(
      `  underwriting  ${view.underwriting.outcome ?? "?"}${view.underwriting.reason ? `: ${view.underwriting.reason}` : ""}`,
    );
  for (const e of view.requirements?.errors ?? []) lines.push(`  requested     ${e.field}: ${e.message}`);
  lines.push("  checks");
  if (view.verification.length === 0) lines.push("    (none yet: they run when the application is submitted)");
  for (const c of view.verification)
    lines.push(
      `    ${c.type.padEnd(13)} ${c.subject.padEnd(12)} ${c.status.padEnd(18)}${c.code ? ` ${c.code}` : ""}${c.document_file_id ? `  document ${c.document_file_id}` : ""}`,
    );
  lines.push("  documents");
  if (view.documents.length === 0) lines.push("    (none)");
  for (const f of view.documents)
    lines.push(
      `    ${f.id}  ${f.purpose.padEnd(24)} ${(f.subject ?? "").padEnd(11)} ${f.type.padEnd(4)} ${String(f.size).padStart(8)} B  ${f.filename}  ${new Date(f.created_at).toISOString()}`,
    );
  return lines.join("\n");
}
