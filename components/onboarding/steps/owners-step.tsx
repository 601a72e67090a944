"use client";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";

import type { LooseJson } from "@/lib/loose-json";
import { ownershipTotal } from "@/lib/onboarding/cross-field";
import { ownersSchema } from "@/lib/onboarding/step-schemas";
import { jobTitles, ownerKeys } from "@/lib/schemas/application-rules";

import { AddressFields, PortalGroup, useFieldRenderer } from "../fields";
import { FormStep } from "../form-step";
import { toFormValues } from "../form-values";
import { usePortal } from "../portal";
import type { StepProps } from "../step-props";

// Owners one to four: add and remove, with the running ownership total.
export function OwnersStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const m = session.merchant as LooseJson;
  const [count, setCountState] = useState(() => Math.max(1, ownerKeys.filter((k) => m[k]).length));
  // The schema reads the current number of owners, so adding or removing one keeps what was typed.
  const countRef = useRef(count);
  const setCount = (n: number) => {
    countRef.current = n;
    setCountState(n);
  };
  const active = ownerKeys.slice(0, count);
  const portal = usePortal();
  const [schema] = useState(() => ownersSchema(() => countRef.current));
  const defaults = toFormValues(Object.fromEntries(ownerKeys.map((k) => [k, m[k] ?? { first_name: null }])));
  // The main contact offered as owner one, while owner one is still blank (most small businesses: the same person).
  const contact = (m.main_contact_person ?? {}) as { name?: string | null; email?: string | null };
  const contactName = (contact.name ?? "").trim();
  const offerContact = !m.owner_one && contactName.includes(" ") && !portal.active;
  return (
    <FormStep
      schema={schema}
      defaultValues={defaults}
      nextHref={nextHref}
      onSaved={onSaved}
      toPatch={(values) => ({
        merchant: Object.fromEntries(
          ownerKeys.map((k, i) => [k, i < countRef.current ? values[k] : i === 0 ? undefined : null]),
        ),
      })}
    >
      {(form) => {
        const render = fieldsFor(form, "owners");
        const total = ownershipTotal(
          Object.fromEntries(active.map((k) => [k, { ownership_percentage: form.watch(`${k}.ownership_percentage`) }])),
          active,
        );
        const fillFromContact = () => {
          const [first, ...rest] = contactName.split(/\s+/);
          const opts = { shouldDirty: true, shouldValidate: true } as const;
          form.setValue("owner_one.first_name", first ?? "", opts);
          form.setValue("owner_one.last_name", rest.join(" "), opts);
          if (contact.email) form.setValue("owner_one.email", contact.email, opts);
          form.setFocus("owner_one.job_title");
        };
        return (
          <>
            {offerContact && !form.watch("owner_one.first_name") ? (
              <button
                type="button"
                className="mb-4 rounded-lg border border-primary px-4 py-2 text-left font-medium"
                onClick={fillFromContact}
                data-testid="owner-from-contact"
              >
                {t("fields.ownerFromContact", { name: contactName })}
              </button>
            ) : null}
            {active.map((k, i) => (
              <PortalGroup key={k} path={k}>
                <fieldset className="mb-6 rounded-lg border border-line p-4">
                  <legend className="px-1 text-lg font-semibold">{t("fields.ownerHeading", { n: i + 1 })}</legend>
                  <div className="grid gap-x-4 sm:grid-cols-3">
                    {render(`${k}.first_name`, "fields.owner.first_name", "text", {
                      autoComplete: i === 0 ? "given-name" : "off",
                    })}
                    {render(`${k}.middle_name`, "fields.owner.middle_name", "text", { optional: true })}
                    {render(`${k}.last_name`, "fields.owner.last_name", "text", {
                      autoComplete: i === 0 ? "family-name" : "off",
                    })}
                  </div>
                  <div className="grid gap-x-4 sm:grid-cols-2">
                    {render(`${k}.job_title`, "fields.owner.job_title", "select", {
                      options: jobTitles.map((v) => ({ value: v, label: t(`options.job_title.${v}`) })),
                    })}
                    {render(`${k}.ownership_percentage`, "fields.owner.ownership_percentage", "percent", {
                      hintKey: "fields.hints.ownership_percentage",
                    })}
                    {render(`${k}.email`, "fields.owner.email", "email")}
                    {render(`${k}.contact_phone`, "fields.owner.contact_phone", "tel", {
                      optional: true,
                      hintKey: "fields.hints.phone",
                    })}
                    {render(`${k}.date_of_birth`, "fields.owner.date_of_birth", "date")}
                    {render(`${k}.ssn`, "fields.owner.ssn", "digits", {
                      hint:
                        typeof m[k]?.ssn === "string"
                          ? t("fields.maskedHint", { masked: m[k].ssn })
                          : t("fields.hints.ssn"),
                    })}
                  </div>
                  <AddressFields render={render} prefix={`${k}.home_address`} legend={t("fields.owner.home_address")} />
                  {i > 0 && i === count - 1 && !portal.active ? (
                    <button
                      type="button"
                      className="rounded-lg border border-line px-4 py-2"
                      onClick={() => setCount(count - 1)}
                    >
                      {t("fields.removeOwner", { n: i + 1 })}
                    </button>
                  ) : null}
                </fieldset>
              </PortalGroup>
            ))}
            <p aria-live="polite" className={`mb-4 font-medium ${total > 100 ? "text-danger" : ""}`}>
              {t("fields.ownershipTotal", { total })}
              {total > 100 ? ` ${t("fields.ownershipTooHigh")}` : ""}
            </p>
            {count < 4 && !portal.active ? (
              <button
                type="button"
                className="mb-2 rounded-lg border border-primary px-4 py-2 font-medium"
                onClick={() => setCount(count + 1)}
              >
                {t("fields.addOwner")}
              </button>
            ) : null}
          </>
        );
      }}
    </FormStep>
  );
}
