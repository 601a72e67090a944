"use client";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import type { UseFormReturn } from "react-hook-form";

import type { LooseJson } from "@/lib/loose-json";
import { stepSchema } from "@/lib/onboarding/step-schemas";
import { bankNameOf } from "@/lib/payments/bank-names";
import { abaChecksumValid } from "@/lib/schemas/aba";

import { useFieldRenderer } from "../fields";
import { FormStep } from "../form-step";
import { toFormValues } from "../form-values";
import type { StepProps } from "../step-props";

const schema = stepSchema("bank");

// Bank account: the routing number is checked as it is typed (and names its bank when known, filling
// an empty bank name); the account number is entered twice.
export function BankStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const bank = (session.merchant as LooseJson).bank_account ?? {};
  return (
    <FormStep
      schema={schema}
      defaultValues={toFormValues({ bank_account: bank })}
      nextHref={nextHref}
      onSaved={onSaved}
    >
      {(form) => {
        const render = fieldsFor(form, "bank");
        const routing = String(form.watch("bank_account.routing_number") ?? "");
        const valid = routing.length === 9 && abaChecksumValid(routing);
        const known = valid ? bankNameOf(routing) : null;
        // The field's own error (after a save) already says it: one message, not two.
        const fieldSaysIt = Boolean((form.formState.errors as LooseJson).bank_account?.routing_number);
        return (
          <>
            <BankNameFiller form={form} known={known} />
            {render("bank_account.bank_name", "fields.bank.bank_name", "text")}
            {render("bank_account.account_holder_name", "fields.bank.account_holder_name", "text")}
            {render("bank_account.routing_number", "fields.bank.routing_number", "digits", {
              hintKey: "fields.hints.routing_number",
            })}
            {/* One line kept for the routing check, empty or not: the fields below do not move, nor crowd the hint above. */}
            <p
              aria-live="polite"
              className={`-mt-3 mb-1 min-h-5 text-sm ${routing.length === 9 && !valid ? "text-danger font-medium" : "text-muted"}`}
            >
              {routing.length === 9
                ? valid
                  ? known
                    ? t("fields.routingOkBank", { bank: known })
                    : t("fields.routingOk")
                  : fieldSaysIt
                    ? ""
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

/** Fills an empty bank name with the bank the routing number names (never overwrites what was typed). */
function BankNameFiller({
  form,
  known,
}: {
  form: Pick<UseFormReturn<LooseJson>, "getValues" | "setValue">;
  known: string | null;
}) {
  useEffect(() => {
    if (known && !String(form.getValues("bank_account.bank_name") ?? "").trim())
      form.setValue("bank_account.bank_name", known);
  }, [known, form]);
  return null;
}
