"use client";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import type { UseFormReturn } from "react-hook-form";

import type { LooseJson } from "@/lib/loose-json";
import { stepSchema } from "@/lib/onboarding/step-schemas";
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
        return (
          <>
            {render("bank_account.bank_name", "fields.bank.bank_name", "text")}
            {render("bank_account.account_holder_name", "fields.bank.account_holder_name", "text")}
            {render("bank_account.routing_number", "fields.bank.routing_number", "digits", {
              hintKey: "fields.hints.routing_number",
            })}
            <RoutingCheck form={form} />
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

/**
 * The routing number's line under its field: invalid, valid, or valid and its bank's name, asked of
 * the routing directory (GET /v1/routing_numbers/{n}, with the session's cookie) once per number (a
 * number it does not know, or a failed call, names none). A bank found fills an empty bank name
 * (never overwriting what was typed).
 */
function RoutingCheck({
  form,
}: {
  form: Pick<UseFormReturn<LooseJson>, "watch" | "getValues" | "setValue" | "formState">;
}) {
  const t = useTranslations();
  const routing = String(form.watch("bank_account.routing_number") ?? "");
  const valid = routing.length === 9 && abaChecksumValid(routing);
  const { data: known } = useQuery({
    queryKey: ["routing-number", routing],
    enabled: valid,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      const res = await fetch(`/v1/routing_numbers/${routing}`, { credentials: "same-origin" }).catch(() => null);
      return res?.ok ? ((await res.json()) as { bank_name: string }).bank_name : null;
    },
  });
  const bank = valid ? (known ?? null) : null;
  useEffect(() => {
    if (bank && !String(form.getValues("bank_account.bank_name") ?? "").trim())
      form.setValue("bank_account.bank_name", bank);
  }, [bank, form]);
  // The field's own error (after a save) already says it: one message, not two.
  const fieldSaysIt = Boolean((form.formState.errors as LooseJson).bank_account?.routing_number);
  return (
    /* One line kept for the routing check, empty or not: the fields below do not move, nor crowd the hint above. */
    <p
      aria-live="polite"
      className={`-mt-3 mb-1 min-h-5 text-sm ${routing.length === 9 && !valid ? "text-danger font-medium" : "text-muted"}`}
    >
      {routing.length === 9
        ? valid
          ? bank
            ? t("fields.routingOkBank", { bank })
            : t("fields.routingOk")
          : fieldSaysIt
            ? ""
            : t("fields.routingInvalid")
        : ""}
    </p>
  );
}
