"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { inputClass } from "@/components/ui/input-class";
import type { HomeSettingsResult } from "@/lib/actions/home";
import { enumLabel, messageOr } from "@/lib/i18n/dynamic";

export type SettingsField = {
  key: string;
  type?: string;
  autoComplete?: string;
  optional?: boolean;
  inputMode?: "numeric";
};

/**
 * One of the home's settings forms (the contact, the bank account): labelled fields, saved by a
 * server action with the application's own rules; each problem said beside its field (by the last
 * part of its path) and the first one focused; "Saved." when it took.
 */
export function SettingsForm({
  id,
  fields,
  initial,
  action,
  submitLabel,
}: {
  id: string;
  fields: SettingsField[];
  initial: Record<string, string>;
  action: (input: unknown) => Promise<HomeSettingsResult>;
  submitLabel: string;
}) {
  const t = useTranslations("merchantHome");
  const all = useTranslations();
  // In the reader's words: a rule's own message (the wizard's), else what the field wants.
  const say = (key: string, code: string) =>
    code === "reauthentication_required"
      ? t("reauthenticate")
      : (messageOr(all, `underwriting.${code}`) ?? messageOr(t, `invalid.${key}`) ?? t("invalidField"));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  const input = inputClass();
  const fieldOf = (param: string) => {
    const last = param.split(".").pop();
    return fields.find((f) => f.key === last)?.key ?? fields[0]?.key ?? param;
  };
  return (
    <form
      noValidate
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        start(async () => {
          const result = await action(values);
          if (result.ok) {
            setErrors({});
            setSaved(true);
            if (result.clear) setValues(Object.fromEntries(fields.map((f) => [f.key, ""])));
            return;
          }
          const next: Record<string, string> = {};
          for (const error of result.errors) {
            const key = fieldOf(error.param);
            next[key] ??= say(key, error.code);
          }
          setErrors(next);
          const first = fields.find((f) => next[f.key]);
          const focus = first?.key ?? fields[0]?.key;
          if (focus) document.getElementById(`${id}-${focus}`)?.focus();
        });
      }}
    >
      {fields.map((f) => {
        const fieldId = `${id}-${f.key}`;
        return (
          <div key={f.key}>
            <label htmlFor={fieldId} className="block text-sm font-medium">
              {enumLabel(t, "fields", f.key)}
              {f.optional ? <span className="font-normal text-muted"> {t("optional")}</span> : null}
            </label>
            <input
              id={fieldId}
              type={f.type ?? "text"}
              inputMode={f.inputMode}
              autoComplete={f.autoComplete ?? "off"}
              value={values[f.key] ?? ""}
              onChange={(e) => {
                setSaved(false);
                setValues({ ...values, [f.key]: e.target.value });
              }}
              aria-invalid={errors[f.key] ? true : undefined}
              aria-describedby={errors[f.key] ? `${fieldId}-error` : undefined}
              className={input}
            />
            {errors[f.key] ? (
              <p id={`${fieldId}-error`} className="mt-1 text-sm text-danger">
                {errors[f.key]}
              </p>
            ) : null}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button
          type="submit"
          disabled={pending}
          className="rounded-lg bg-primary px-5 py-2.5 font-semibold text-on-primary disabled:opacity-60"
        >
          {submitLabel}
        </button>
        <p role="status" className="text-sm" data-testid={`${id}-saved`}>
          {saved ? t("saved") : ""}
        </p>
      </div>
    </form>
  );
}
