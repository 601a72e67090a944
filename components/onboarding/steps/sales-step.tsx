"use client";
import { useTranslations } from "next-intl";

import type { LooseJson } from "@/lib/loose-json";
import { salesMixParts, salesMixTotal } from "@/lib/onboarding/cross-field";
import { stepSchema } from "@/lib/onboarding/step-schemas";

import { useFieldRenderer } from "../fields";
import { FormStep } from "../form-step";
import { toFormValues } from "../form-values";
import type { StepProps } from "../step-props";

const schema = stepSchema("sales");

// Sales: volumes and tickets, and the four percentages with a live total that must reach 100.
export function SalesStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const sales = (session.merchant as LooseJson).current_sales ?? {};
  return (
    <FormStep
      schema={schema}
      // Zero where zero is most merchants' answer (no separate American Express volume, no mail or
      // phone orders); every value stays the merchant's to change.
      defaultValues={toFormValues({
        current_sales: {
          ...sales,
          average_amex_monthly_sales: sales.average_amex_monthly_sales ?? "0",
          average_amex_ticket_value: sales.average_amex_ticket_value ?? "0",
          sales_percentage: {
            ...sales.sales_percentage,
            moto_percentage: sales.sales_percentage?.moto_percentage ?? "0",
          },
        },
      })}
      nextHref={nextHref}
      onSaved={onSaved}
    >
      {(form) => {
        const render = fieldsFor(form, "sales");
        const mix: Record<string, unknown> = form.watch("current_sales.sales_percentage") ?? {};
        const sum = salesMixTotal(mix);
        // Not marked before the merchant has typed a share (the defaulted 0 of mail and phone orders aside).
        const started = salesMixParts.some((p) => p !== "moto_percentage" && String(mix?.[p] ?? "").trim() !== "");
        const off = started && Math.abs(sum - 100) >= 0.001;
        const money = (name: string) =>
          render(`current_sales.${name}`, `fields.sales.${name}`, "money", { hintKey: "fields.hints.money" });
        return (
          <>
            <div className="grid gap-x-4 sm:grid-cols-2">
              {money("average_monthly_in_credit_card")}
              {money("average_ticket_value")}
              {money("highest_amount_to_date")}
              {money("average_amex_monthly_sales")}
              {money("average_amex_ticket_value")}
            </div>
            <fieldset className="mb-4 rounded-lg border border-line p-4">
              <legend className="px-1 font-medium">{t("fields.salesMix")}</legend>
              <div className="grid gap-x-4 sm:grid-cols-2">
                {salesMixParts.map((p) =>
                  render(`current_sales.sales_percentage.${p}`, `fields.sales.${p}`, "percent", {
                    optional: p === "moto_percentage",
                  }),
                )}
              </div>
              <p aria-live="polite" data-testid="sales-total" className={`font-medium ${off ? "text-danger" : ""}`}>
                {t("fields.salesTotal", { total: Math.round(sum * 100) / 100 })}
              </p>
            </fieldset>
          </>
        );
      }}
    </FormStep>
  );
}
