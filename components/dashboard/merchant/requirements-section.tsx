import { getTranslations } from "next-intl/server";

import { fieldLabel } from "@/lib/i18n/field-label";
import type { LooseJson } from "@/lib/loose-json";
import type { MerchantJson } from "@/lib/serializers/merchant";

import { merchantWords } from "./words";

/** What is due from the merchant, each field by its label with underwriting's reason in words. */
export async function RequirementsSection({
  requirements,
  app,
}: {
  requirements: MerchantJson["requirements"];
  app: LooseJson;
}) {
  const t = await getTranslations("dashboard");
  const root = await getTranslations();
  const { reasonText } = merchantWords(root, app, t("checks.subjectBusiness"));
  return (
    <section aria-labelledby="requirements-title">
      <h2 id="requirements-title" className="text-lg font-semibold">
        {t("requirements")}
      </h2>
      {requirements.currently_due.length === 0 ? (
        <p>{t("nothingDue")}</p>
      ) : (
        <ul className="list-disc pl-5" data-testid="requirements">
          {requirements.currently_due.map((f) => {
            const error = requirements.errors.find((e) => e.field === f);
            const reason = error ? reasonText(f, error.code, error.message) : null;
            return (
              <li key={f}>
                {fieldLabel(root, f)}
                {reason ? <span className="text-muted"> · {reason}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
