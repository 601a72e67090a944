import { getFormatter, getTranslations } from "next-intl/server";

import { factRow as row } from "@/components/ui/fact-row";
import { displayPhone } from "@/lib/i18n/display";
import { messageOr } from "@/lib/i18n/dynamic";
import type { LooseJson } from "@/lib/loose-json";
import { categoryKey } from "@/lib/schemas/product-categories";
import { ownerKeys } from "@/lib/schemas/vocabulary";
import type { MerchantJson } from "@/lib/serializers/merchant";

/**
 * The merchant's application as the API shows it (masked), each answer in the reader's words, and
 * the device it chose (by the catalogue's name) or skipped.
 */
export async function ApplicationSection({
  json,
  deviceName,
}: {
  json: MerchantJson;
  /** The ISV's catalogue name of the chosen device, when the catalogue has it. */
  deviceName: string | undefined;
}) {
  const t = await getTranslations("dashboard");
  const root = await getTranslations();
  const format = await getFormatter();
  const app = json.merchant as LooseJson;
  const day = (iso: unknown) =>
    typeof iso === "string" && /^\d{4}-\d{2}-\d{2}$/.test(iso)
      ? format.dateTime(new Date(`${iso}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" })
      : "";
  const option = (field: string, value: unknown) =>
    (typeof value === "string" ? messageOr(root, `options.${field}.${value}`) : null) ?? (value as string | null) ?? "";
  const address = (a: LooseJson | null | undefined) => (a ? `${a.address}, ${a.city}, ${a.state} ${a.zip}` : "");
  const owners = ownerKeys.filter((k) => app[k]).map((k) => app[k] as LooseJson);
  const product = app.main_product as LooseJson | null | undefined;
  return (
    <>
      <section aria-labelledby="application-title">
        <h2 id="application-title" className="text-lg font-semibold">
          {t("application")}
        </h2>
        <dl className="mt-2 space-y-1" data-testid="application">
          {row(root("fields.legal_business_name"), app.legal_business_name)}
          {row(root("fields.doing_business_as"), app.doing_business_as)}
          {row(root("fields.business_type"), option("business_type", app.business_type))}
          {row(root("fields.tin"), app.tin ? `${app.tin_type ?? ""} ${app.tin}`.trim() : null)}
          {row(root("fields.business_established_date"), day(app.business_established_date))}
          {row(root("fields.legal_phone"), displayPhone(app.legal_phone))}
          {row(root("fields.legal_business_address"), address(app.legal_business_address))}
          {owners.map((o, i) =>
            row(
              root("fields.ownerHeading", { n: i + 1 }),
              `${o.first_name ?? ""} ${o.last_name ?? ""} · ${option("job_title", o.job_title)} · ${o.ownership_percentage ?? "?"} %`,
            ),
          )}
          {row(
            root("wizard.steps.bank"),
            app.bank_account
              ? [app.bank_account.bank_name, app.bank_account.routing_number, app.bank_account.account_number]
                  .filter(Boolean)
                  .join(" · ")
              : null,
            "bank",
          )}
          {row(
            root("fields.product.category"),
            product
              ? [
                  product.category &&
                    (messageOr(root, `options.category.${categoryKey(product.category)}`) ?? product.category),
                  product.subcategory &&
                    (messageOr(root, `subcategories.${categoryKey(product.subcategory)}`) ?? product.subcategory),
                ]
                  .filter(Boolean)
                  .join(" › ")
              : null,
          )}
          {row(
            root("fields.main_contact_person"),
            app.main_contact_person ? `${app.main_contact_person.name} · ${app.main_contact_person.email}` : null,
          )}
        </dl>
        {!app.legal_business_name && !app.bank_account && owners.length === 0 ? <p>{t("applicationEmpty")}</p> : null}
      </section>
      <section aria-labelledby="device-title">
        <h2 id="device-title" className="text-lg font-semibold">
          {root("wizard.steps.device")}
        </h2>
        <p data-testid="device">
          {json.device_selection === "skipped"
            ? t("deviceSkipped")
            : json.device
              ? [
                  deviceName ?? json.device.catalog_id,
                  json.device.imei ? `IMEI ${json.device.imei}` : null,
                  t(`imeiStatus.${json.device.imei_status}`),
                ]
                  .filter(Boolean)
                  .join(" · ")
              : t("deviceNone")}
        </p>
      </section>
    </>
  );
}
