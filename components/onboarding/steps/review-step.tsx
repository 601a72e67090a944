"use client";
import Link from "next/link";
import { useFormatter, useLocale, useTranslations } from "next-intl";

import { primaryButtonClass } from "@/components/ui/button";
import { displayPhone } from "@/lib/i18n/display";
import { messageOr } from "@/lib/i18n/dynamic";
import { keyLabel } from "@/lib/i18n/field-label";
import { intlLocale } from "@/lib/i18n/locales";
import type { LooseJson } from "@/lib/loose-json";
import { onboardingSteps } from "@/lib/onboarding/steps";
import { categoryKey } from "@/lib/schemas/product-categories";

import type { StepProps } from "../step-props";

type Json = LooseJson;

function useLabel() {
  const t = useTranslations();
  return (key: string) => keyLabel(t, key);
}

const moneyFields = new Set([
  "average_monthly_in_credit_card",
  "average_ticket_value",
  "highest_amount_to_date",
  "average_amex_monthly_sales",
  "average_amex_ticket_value",
]);
/** Lines the review leaves out: the confirmation repeats the account number. */
const hiddenFields = new Set(["account_number_confirm"]);

/** A value as the form showed it: option labels, dates, money and percentages in the reader's words. */
function useDisplay() {
  const t = useTranslations();
  const format = useFormatter();
  const locale = intlLocale(useLocale());
  return (key: string, v: unknown): string => {
    if (typeof v === "boolean") return t(v ? "review.yes" : "review.no");
    if (typeof v !== "string") return String(v);
    const option = messageOr(t, `options.${key}.${v}`);
    if (option !== null) return option;
    const category = key === "category" ? messageOr(t, `options.category.${categoryKey(v)}`) : null;
    if (category !== null) return category;
    if (key === "subcategory") return messageOr(t, `subcategories.${categoryKey(v)}`) ?? v;
    // Exact decimal strings are formatted as strings (never through a float).
    if (moneyFields.has(key) && /^\d+(\.\d+)?$/.test(v))
      return new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(v as unknown as number);
    if (key.endsWith("_percentage") && /^\d+(\.\d+)?$/.test(v))
      return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(v as unknown as number)} %`;
    if (/^\d{4}-\d{2}-\d{2}$/.test(v))
      return format.dateTime(new Date(`${v}T00:00:00Z`), { dateStyle: "long", timeZone: "UTC" });
    if (/^\+1\d{10}$/.test(v)) return displayPhone(v);
    return v;
  };
}

/** An address as one line, as it is written on an envelope: "1 Main St, San Francisco, CA 94105". */
const isAddress = (v: unknown): v is { address: string; city: string; state: string; zip: string } =>
  Boolean(v && typeof v === "object" && "address" in v && "city" in v && "state" in v && "zip" in v);
const addressLine = (a: { address: string; city: string; state: string; zip: string }) =>
  [a.address, a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");

function Rows({ value }: { value: Json | null | undefined }) {
  const t = useTranslations("review");
  const label = useLabel();
  const display = useDisplay();
  if (!value) return <p className="text-muted">{t("notProvided")}</p>;
  return (
    <dl className="space-y-1">
      {Object.entries(value)
        .filter(([k]) => !hiddenFields.has(k))
        .map(([k, raw]) => [k, isAddress(raw) ? addressLine(raw) : raw] as const)
        .map(([k, v]) => (
          <div
            key={k}
            className={v && typeof v === "object" ? "pt-2" : "grid gap-x-4 sm:grid-cols-[minmax(0,14rem)_1fr]"}
          >
            <dt className={v && typeof v === "object" ? "font-medium" : "text-muted"}>{label(k)}</dt>
            <dd className={v && typeof v === "object" ? "pl-3" : "break-words"}>
              {v && typeof v === "object" ? (
                <Rows value={v} />
              ) : v === null || v === "" ? (
                t("notProvided")
              ) : (
                display(k, v)
              )}
            </dd>
          </div>
        ))}
    </dl>
  );
}

// Review: every answer, each section with a link back to its step.
export function ReviewStep({ session, nextHref }: StepProps) {
  const t = useTranslations();
  const m = session.merchant as Json;
  // Each data step's answers, from the fields the step registry gives it (a step owning one object shows its inside).
  const sections = onboardingSteps
    .filter((s) => s.fields.length > 0)
    .map(({ id, fields }) => ({
      step: id,
      value: (fields.length === 1 && fields[0]
        ? m[fields[0]]
        : Object.fromEntries(fields.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]))) as Json | null,
    }));
  const device =
    session.device_selection === "skipped"
      ? t("review.skippedDevice")
      : (session.device_options.find((d) => d.id === session.device?.catalog_id)?.name ??
        session.device?.imei ??
        t("review.notProvided"));
  return (
    <div>
      <p className="mb-4">{t("review.intro")}</p>
      {sections.map(({ step, value }) => (
        <section key={step} className="mb-4 rounded-lg border border-line bg-card p-4">
          <div className="mb-2 flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">{t(`wizard.steps.${step}`)}</h2>
            <Link href={`/onboarding/${step}`} className="text-sm font-medium underline">
              {t("review.edit", { section: t(`wizard.steps.${step}`) })}
            </Link>
          </div>
          <Rows value={value} />
        </section>
      ))}
      <section className="mb-4 rounded-lg border border-line bg-card p-4">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{t("wizard.steps.device")}</h2>
          <Link href="/onboarding/device" className="text-sm font-medium underline">
            {t("review.edit", { section: t("wizard.steps.device") })}
          </Link>
        </div>
        <p>{device}</p>
      </section>
      <Link href={nextHref} className={primaryButtonClass("lg", "inline-block")}>
        {t("review.continue")}
      </Link>
    </div>
  );
}
