"use client";
import { useTranslations } from "next-intl";
import type { FieldError, UseFormRegisterReturn } from "react-hook-form";

import { messageOr } from "@/lib/i18n/dynamic";

export type FieldKind =
  "text" | "email" | "tel" | "date" | "url" | "digits" | "money" | "percent" | "select" | "textarea";

type Props = {
  id: string;
  label: string;
  kind: FieldKind;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  hint?: string;
  optional?: boolean;
  options?: { value: string; label: string }[];
  autoComplete?: string;
};

/** A labelled input: the hint and the error are tied to it (aria-describedby) and errors are announced. */
export function Field({ id, label, kind, registration, error, hint, optional, options, autoComplete }: Props) {
  const t = useTranslations();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const message = error
    ? error.type === "required" || error.type === "invalid_type" || error.type === "parameter_missing"
      ? t("errors.required", { field: label })
      : error.message && /^[a-z]+\.[a-z0-9_]+$/.test(error.message)
        ? // A rule that says its message by key (lib/schemas/application-rules.ts): in the reader's words.
          (messageOr(t, error.message) ?? t("errors.invalid", { field: label }))
        : t("errors.invalid", { field: label })
    : null;
  const common = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": optional ? undefined : true,
    className: `mt-1 block w-full rounded-lg border bg-card px-3 py-2.5 text-base text-ink ${error ? "border-danger" : "border-line"} focus:outline-none focus:ring-2 focus:ring-primary`,
    ...registration,
  };
  return (
    <div className="mb-4">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {optional ? <span className="font-normal text-muted"> ({t("wizard.optional")})</span> : null}
      </label>
      {kind === "select" ? (
        <select {...common} autoComplete={autoComplete}>
          <option value="">{t("fields.select")}</option>
          {options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : kind === "textarea" ? (
        <textarea {...common} rows={3} />
      ) : (
        <input
          {...common}
          type={
            kind === "email"
              ? "email"
              : kind === "tel"
                ? "tel"
                : kind === "date"
                  ? "date"
                  : kind === "url"
                    ? "url"
                    : "text"
          }
          inputMode={kind === "digits" ? "numeric" : kind === "money" || kind === "percent" ? "decimal" : undefined}
          autoComplete={autoComplete ?? "off"}
        />
      )}
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-danger" role="alert">
          {message}
        </p>
      ) : null}
    </div>
  );
}
