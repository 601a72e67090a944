import { notFound } from "next/navigation";
import { getFormatter, getTranslations } from "next-intl/server";
import { requireIsvUser } from "@/lib/dashboard/session";
import { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { merchantRequirements } from "@/lib/domain/merchants/requirements";
import { isFinal } from "@/lib/domain/merchants/status";
import { NewLinkButton } from "@/components/dashboard/new-link-button";
import { AppError } from "@/lib/errors";
import type { OnboardingStatus } from "@/lib/schemas/application";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("merchantsTitle") };
}

// One merchant: status history (its events), requirements, the latest link and a new one.
export default async function MerchantPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, account } = await requireIsvUser();
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  const {
    merchant,
    history,
    latestLink: link,
  } = await getMerchantActivity(db, account.id, id).catch((e) => {
    if (e instanceof AppError && e.type === "not_found_error") notFound();
    throw e;
  });
  const requirements = merchantRequirements(merchant, {
    deviceRequired: (account.settings as { device_selection_required?: boolean }).device_selection_required !== false,
  });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{(merchant.application.legal_business_name as string | undefined) ?? t("unnamed")}</h1>
        <p className="text-muted">
          {merchant.id} · {merchant.phone} · <strong>{t(`statusNames.${merchant.status}`)}</strong>
        </p>
      </div>
      <section>
        <h2 className="text-lg font-semibold">{t("requirements")}</h2>
        {requirements.currently_due.length === 0 ? (
          <p>{t("nothingDue")}</p>
        ) : (
          <ul className="list-disc pl-5">
            {requirements.currently_due.map((f) => (
              <li key={f}>
                {f}
                {requirements.errors.find((e) => e.field === f) ? `: ${requirements.errors.find((e) => e.field === f)!.message}` : ""}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section>
        <h2 className="text-lg font-semibold">{t("latestLink")}</h2>
        {link ? (
          <p>
            {link.id} ·{" "}
            {t("linkCreated", {
              created: format.dateTime(link.createdAt, { dateStyle: "medium", timeStyle: "short" }),
              expires: format.dateTime(link.expiresAt, { dateStyle: "medium", timeStyle: "short" }),
            })}
            {link.supersededAt ? ` (${t("linkSuperseded")})` : ""}
          </p>
        ) : (
          <p>{t("noLink")}</p>
        )}
        {!isFinal(merchant.status) ? <NewLinkButton merchantId={merchant.id} /> : null}
      </section>
      <section>
        <h2 className="text-lg font-semibold">{t("history")}</h2>
        <ol className="mt-2 space-y-1">
          {history.map((e) => (
            <li key={e.id}>
              <span className="text-muted">{format.dateTime(e.createdAt, { dateStyle: "medium", timeStyle: "medium" })}</span> · {e.type} ·{" "}
              {t(`statusNames.${(e.data as { lead_onboarding_status: OnboardingStatus }).lead_onboarding_status}`)}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
