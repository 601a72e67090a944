import { getFormatter, getTranslations } from "next-intl/server";

import { HomeShell } from "@/components/home/home-shell";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { listMerchantFiles } from "@/lib/domain/files/create-file";
import { requirementsFor } from "@/lib/domain/merchants/requirements";
import { requireMerchant } from "@/lib/home/session";
import { enumLabel, messageOr } from "@/lib/i18n/dynamic";
import { businessName } from "@/lib/merchants/facts";
import { requestNames } from "@/lib/onboarding/request-names";

export async function generateMetadata() {
  const t = await getTranslations("merchantHome");
  return { title: t("documentsTitle") };
}

// /home/documents: the merchant's agreement as it signed it (PDF) and the documents it uploaded,
// each downloadable; what its ISV or our checks still ask for, in words.
export default async function HomeDocuments() {
  const { db, merchant, scope, isv } = await requireMerchant();
  const t = await getTranslations("merchantHome");
  const dashboard = await getTranslations("dashboard");
  const format = await getFormatter();
  const all = await getTranslations();
  const names = requestNames(merchant.application as Record<string, unknown>);
  const brand = brandOf(isv);
  const files = await listMerchantFiles(db, scope, merchant.id);
  const signature = merchant.agreement;
  const due = requirementsFor(merchant, isv);
  const when = (d: Date | string) => format.dateTime(new Date(d), { dateStyle: "long", timeStyle: "short" });
  return (
    <HomeShell branding={brand} business={businessName(merchant) || merchant.id} section="documents">
      <h1 className="text-2xl font-semibold">{t("documentsTitle")}</h1>
      {due.currently_due.length > 0 ? (
        <section
          role="note"
          aria-labelledby="due-title"
          className="mt-4 rounded-lg border-2 border-primary bg-card p-4"
        >
          <h2 id="due-title" className="font-semibold">
            {t("due", { name: brand.display_name })}
          </h2>
          <ul className="mt-2 list-disc pl-5" data-testid="due-list">
            {due.errors.map((e) => (
              <li key={`${e.field}-${e.code}`}>
                {messageOr(all, `underwriting.${e.code}`, names(e.field)) ?? e.message}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm">{t("dueContact", { name: brand.display_name })}</p>
        </section>
      ) : null}
      <section aria-labelledby="agreement-title" className="mt-5 rounded-lg border border-line bg-card p-4">
        <h2 id="agreement-title" className="text-lg font-semibold">
          {t("agreementTitle")}
        </h2>
        {signature ? (
          <p className="mt-1" data-testid="agreement-signed">
            {t("agreementSigned", { name: signature.name, when: when(signature.signed_at) })}
          </p>
        ) : (
          <p className="mt-1">{t("agreementUnsigned")}</p>
        )}
        <a href="/home/documents/agreement.pdf" className="mt-2 inline-block font-medium underline" download>
          {t("agreementDownload")}
        </a>
      </section>
      <section aria-labelledby="files-title" className="mt-5">
        <h2 id="files-title" className="text-lg font-semibold">
          {t("filesTitle")}
        </h2>
        {files.length === 0 ? (
          <p className="mt-2">{t("noFiles")}</p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line bg-card" data-testid="files">
            {files.map((f) => (
              <li key={f.id} className="flex flex-wrap items-baseline justify-between gap-2 p-3">
                <a href={`/home/files/${f.id}`} className="font-medium break-all underline">
                  {f.filename}
                </a>
                <span className="text-sm text-muted">
                  {enumLabel(dashboard, "checks.purpose", f.purpose)} · {when(f.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </HomeShell>
  );
}
