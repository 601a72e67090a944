"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { stepSchema } from "@/lib/onboarding/step-schemas";
import { businessTypes, tinTypes } from "@/lib/schemas/application-rules";

import { AddressFields, PortalGroup, useFieldRenderer } from "../fields";
import { FormStep } from "../form-step";
import { toFormValues } from "../form-values";
import { usePortal } from "../portal";
import type { StepProps } from "../step-props";

const schema = stepSchema("business");

// Business: legal name, DBA, type, tax ID, date, phones, addresses and the main contact.
export function BusinessStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const m = session.merchant as Record<string, unknown>;
  const portal = usePortal();
  const [sameAddress, setSameAddress] = useState(
    () => !m.dba_address || JSON.stringify(m.dba_address) === JSON.stringify(m.legal_business_address),
  );
  // The phone the ISV gave when it created the merchant stands in for a legal phone not given yet.
  const defaults = toFormValues(
    Object.fromEntries(
      Object.keys(schema.shape).map((k) => [k, m[k] ?? (k === "legal_phone" ? session.phone : null) ?? null]),
    ),
  );
  return (
    <FormStep
      schema={schema}
      defaultValues={defaults}
      nextHref={nextHref}
      onSaved={onSaved}
      toPatch={(values) =>
        portal.active
          ? { merchant: Object.fromEntries(Object.entries(values).filter(([k]) => portal.shows(k))) }
          : {
              merchant: {
                ...values,
                dba_address: sameAddress ? (values.legal_business_address ?? null) : (values.dba_address ?? null),
              },
            }
      }
    >
      {(form) => {
        const render = fieldsFor(form, "business");
        return (
          <>
            {render("legal_business_name", "fields.legal_business_name", "text", { autoComplete: "organization" })}
            {render("doing_business_as", "fields.doing_business_as", "text", { optional: true })}
            {render("business_type", "fields.business_type", "select", {
              options: businessTypes.map((v) => ({ value: v, label: t(`options.business_type.${v}`) })),
            })}
            <div className="grid gap-x-4 sm:grid-cols-2">
              {render("tin_type", "fields.tin_type", "select", {
                options: tinTypes.map((v) => ({ value: v, label: t(`options.tin_type.${v}`) })),
              })}
              {render("tin", "fields.tin", "digits", {
                hint: typeof m.tin === "string" ? t("fields.maskedHint", { masked: m.tin }) : t("fields.hints.tin"),
              })}
            </div>
            {render("business_established_date", "fields.business_established_date", "date")}
            <div className="grid gap-x-4 sm:grid-cols-2">
              {render("legal_phone", "fields.legal_phone", "tel", {
                hintKey: "fields.hints.phone",
                autoComplete: "tel",
              })}
              {render("business_phone", "fields.business_phone", "tel", {
                optional: true,
                hintKey: "fields.hints.phone",
              })}
            </div>
            <AddressFields
              render={render}
              prefix="legal_business_address"
              legend={t("fields.legal_business_address")}
              autoCompleteSection="section-legal"
            />
            {!portal.active ? (
              <div className="mb-4 flex items-center gap-2">
                <input
                  id="dba-same"
                  type="checkbox"
                  className="h-5 w-5"
                  checked={sameAddress}
                  onChange={(e) => setSameAddress(e.target.checked)}
                />
                <label htmlFor="dba-same">{t("fields.dba_same")}</label>
              </div>
            ) : null}
            {!sameAddress || portal.active ? (
              <AddressFields render={render} prefix="dba_address" legend={t("fields.dba_address")} />
            ) : null}
            <PortalGroup path="main_contact_person">
              <fieldset className="mb-4 rounded-lg border border-line p-4">
                <legend className="px-1 font-medium">{t("fields.main_contact_person")}</legend>
                {render("main_contact_person.name", "fields.contact_name", "text", { autoComplete: "name" })}
                {render("main_contact_person.email", "fields.contact_email", "email", { autoComplete: "email" })}
              </fieldset>
            </PortalGroup>
          </>
        );
      }}
    </FormStep>
  );
}
