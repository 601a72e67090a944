import { getTranslations } from "next-intl/server";

import { StatusBadge } from "@/components/dashboard/status-badge";
import { DataTable } from "@/components/ui/data-table";
import type { listMerchantFiles } from "@/lib/domain/files/create-file";
import { messageOr } from "@/lib/i18n/dynamic";
import { readerFormats } from "@/lib/i18n/reader-formats";
import type { LooseJson } from "@/lib/loose-json";
import type { MerchantJson } from "@/lib/serializers/merchant";

import { merchantWords } from "./words";

type MerchantFile = Awaited<ReturnType<typeof listMerchantFiles>>[number];

// A check's state in the merchant badges' colours: running amber, done green, a document needed blue, failed red.
const checkTone = {
  pending: "COMPLETED",
  verified: "APPROVED",
  requires_document: "IN_PROGRESS",
  failed: "FAILED",
} as const;

/**
 * The merchant's verification checks (what each is about, where it stands, why, the document that
 * answered it) and the documents the merchant uploaded, each a download.
 */
export async function VerificationTables({
  checks,
  documents,
  app,
}: {
  checks: MerchantJson["verification"];
  documents: MerchantFile[];
  app: LooseJson;
}) {
  const t = await getTranslations("dashboard");
  const root = await getTranslations();
  const { when } = await readerFormats();
  const { reasonText, subjectName } = merchantWords(root, app, t("checks.subjectBusiness"));
  const fileById = new Map(documents.map((f) => [f.id, f]));
  return (
    <>
      <DataTable
        id="checks"
        title={t("checks.title")}
        testId="checks"
        empty={checks.length === 0 ? t("checks.none") : null}
        columns={[
          { label: t("checks.check") },
          { label: t("checks.subject") },
          { label: t("checks.state") },
          { label: t("checks.reason") },
          { label: t("checks.document") },
        ]}
      >
        {checks.map((c) => {
          const file = c.document_file_id ? fileById.get(c.document_file_id) : undefined;
          const field = c.subject === "merchant" ? "merchant" : `${c.subject}.`;
          return (
            <tr key={`${c.type}-${c.subject}`} className="border-b border-line align-top">
              <td className="py-2 pr-3">{t(`checks.type.${c.type}`)}</td>
              <td className="py-2 pr-3">{subjectName(c.subject)}</td>
              <td className="py-2 pr-3">
                <StatusBadge status={checkTone[c.status]} label={t(`checks.status.${c.status}`)} />
              </td>
              <td className="py-2 pr-3">{c.status === "verified" ? "" : reasonText(field, c.code, c.message)}</td>
              <td className="py-2">
                {file ? (
                  <a className="underline" href={`/dashboard/files/${file.id}`}>
                    {file.filename}
                  </a>
                ) : null}
              </td>
            </tr>
          );
        })}
      </DataTable>
      <DataTable
        id="documents"
        title={t("checks.documents")}
        testId="documents"
        empty={documents.length === 0 ? t("checks.noDocuments") : null}
        columns={[{ label: t("checks.document") }, { label: t("checks.subject") }, { label: t("checks.uploaded") }]}
      >
        {documents.map((f) => (
          <tr key={f.id} className="border-b border-line">
            <td className="py-2 pr-3">
              <a className="underline" href={`/dashboard/files/${f.id}`}>
                {t("checks.download")}: {f.filename}
              </a>{" "}
              <span className="text-muted">· {messageOr(t, `checks.purpose.${f.purpose}`) ?? f.purpose}</span>
            </td>
            <td className="py-2 pr-3">{f.subject ? subjectName(f.subject) : t("checks.subjectBusiness")}</td>
            <td className="py-2">{when(f.createdAt)}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
