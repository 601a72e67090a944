"use client";
import { useTranslations } from "next-intl";

import { stepSchema } from "@/lib/onboarding/step-schemas";
import { abaChecksumValid } from "@/lib/schemas/aba";

import { useFieldRenderer } from "../fields";
import { FormStep, toFormValues } from "../form-step";
import type { StepProps } from "../step-props";

const schema = stepSchema("bank");

// Bank account: the routing number is checked as it is typed; the account number is entered twice.
export function BankStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const bank = (session.merchant as Record<string, any>).bank_account ?? {};
  return (
    <FormStep
      schema={schema}
      defaultValues={toFormValues({ bank_account: bank })}
      nextHref={nextHref}
      onSaved={onSaved}
    >
      {(form) => {
        const render = fieldsFor(form, "bank");
        const routing = String(form.watch("bank_account.routing_number" as never) ?? "");
        return (
          <>
            {render("bank_account.bank_name", "fields.bank.bank_name", "text")}
            {render("bank_account.account_holder_name", "fields.bank.account_holder_name", "text")}
            {render("bank_account.routing_number", "fields.bank.routing_number", "digits", {
              hintKey: "fields.hints.routing_number",
            })}
            {/* One line kept for the routing check, empty or not: the fields below do not move, nor crowd the hint above. */}
            <p
              aria-live="polite"
              className={`-mt-3 mb-1 min-h-5 text-sm ${routing.length === 9 && !abaChecksumValid(routing) ? "text-danger font-medium" : "text-muted"}`}
            >
              {routing.length === 9
                ? abaChecksumValid(routing)
                  ? t("fields.routingOk")
                  : t("fields.routingInvalid")
                : ""}
            </p>
            {render("bank_account.account_number", "fields.bank.account_number", "digits", {
              hint: bank.account_number
                ? t("fields.maskedHint", { masked: bank.account_number })
                : t("fields.hints.account_number"),
            })}
            {render("bank_account.account_number_confirm", "fields.bank.account_number_confirm", "digits")}
          </>
        );
      }}
    </FormStep>
  );
}
