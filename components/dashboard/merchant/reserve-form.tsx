"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { ReserveFormResult } from "@/lib/actions/reserves";

type Key = "type" | "percent" | "hold_days" | "amount" | "release_on" | "reason";

/**
 * The ISV's new reserve on a merchant (docs/reference.md section 20): rolling (a percent of each
 * settlement held for some days) or fixed (an amount, until released or a date), and the reason the
 * merchant reads. Each problem said beside its field and focused; the list above shows it once made.
 */
export function ReserveForm({ action }: { action: (input: unknown) => Promise<ReserveFormResult> }) {
  const t = useTranslations("reserves.form");
  const empty = { type: "rolling", percent: "10", hold_days: "90", amount: "", release_on: "", reason: "" };
  const [values, setValues] = useState<Record<Key, string>>(empty);
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [done, setDone] = useState(false);
  const [pending, start] = useTransition();
  const set = (key: Key) => (e: { target: { value: string } }) => {
    setDone(false);
    setValues({ ...values, [key]: e.target.value });
  };
  const field = (key: Key, input: React.ReactNode) => (
    <div className={key === "reason" ? "sm:col-span-2" : ""}>
      <label htmlFor={`reserve-${key}`} className="block text-sm font-medium">
        {t(`fields.${key}`)}
      </label>
      {input}
      {errors[key] ? (
        <p id={`reserve-${key}-error`} className="mt-1 text-sm text-danger">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );
  const props = (key: Key) => ({
    id: `reserve-${key}`,
    value: values[key],
    onChange: set(key),
    className: inputClass(),
    ...(errors[key] ? { "aria-invalid": true, "aria-describedby": `reserve-${key}-error` } : {}),
  });
  const shown: Key[] =
    values.type === "fixed" ? ["type", "amount", "release_on", "reason"] : ["type", "percent", "hold_days", "reason"];
  return (
    <form
      noValidate
      className="mt-3 grid gap-3 sm:grid-cols-2"
      data-testid="reserve-form"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(false);
        start(async () => {
          const result = await action(values);
          if (result.ok) {
            setErrors({});
            setValues(empty);
            setDone(true);
            return;
          }
          const next: Partial<Record<Key, string>> = {};
          for (const problem of result.errors) {
            const key = problem.param.split(".").pop() as Key;
            const at = shown.includes(key) ? key : "type";
            next[at] ??= t(`problems.${at}`);
            if (problem.code === "merchant_not_approved") next.type = t("problems.notApproved");
          }
          setErrors(next);
          const first = shown.find((k) => next[k]);
          if (first) document.getElementById(`reserve-${first}`)?.focus();
        });
      }}
    >
      {field(
        "type",
        <select {...props("type")}>
          <option value="rolling">{t("types.rolling")}</option>
          <option value="fixed">{t("types.fixed")}</option>
        </select>,
      )}
      {values.type === "fixed" ? (
        <>
          {field("amount", <input {...props("amount")} inputMode="decimal" autoComplete="off" placeholder="0.00" />)}
          {field("release_on", <input {...props("release_on")} type="date" />)}
        </>
      ) : (
        <>
          {field("percent", <input {...props("percent")} inputMode="decimal" autoComplete="off" />)}
          {field("hold_days", <input {...props("hold_days")} inputMode="numeric" autoComplete="off" />)}
        </>
      )}
      {field("reason", <textarea {...props("reason")} rows={2} maxLength={300} />)}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("submit")}
        </button>
        <p role="status" className="text-sm" data-testid="reserve-saved">
          {done ? t("done") : ""}
        </p>
      </div>
    </form>
  );
}

/** Gives a reserve back now, after a confirmation. */
export function ReleaseReserveButton({ action, label }: { action: () => Promise<ReserveFormResult>; label: string }) {
  const t = useTranslations("reserves");
  const [pending, start] = useTransition();
  const [failed, setFailed] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        className="rounded-lg border border-line bg-card px-3 py-1 text-sm font-semibold"
        onClick={() => {
          if (!window.confirm(t("releaseConfirm"))) return;
          start(async () => setFailed(!(await action()).ok));
        }}
      >
        {t("release")}
      </button>
      {failed ? (
        <span role="alert" className="ml-2 text-sm text-danger">
          {t("releaseFailed")}
        </span>
      ) : null}
    </>
  );
}
