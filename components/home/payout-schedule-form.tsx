"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { PayoutFormResult } from "@/lib/actions/home-payouts";
import { payoutIntervals, type PayoutSchedule, weekdays } from "@/lib/schemas/payout-schedule";

type Key = "interval" | "weekly_anchor" | "monthly_anchor" | "delay_days" | "minimum_amount";

/**
 * A merchant's payout schedule (docs/reference.md section 20): the merchant's own in its home when
 * its ISV allows it, or the ISV's on the dashboard's merchant page. How often, the day, the
 * business days to arrive and the minimum in dollars. Each problem said beside
 * its field and focused; "Saved." when it took.
 */
export function PayoutScheduleForm({
  schedule,
  action,
  voice = "merchant",
}: {
  schedule: PayoutSchedule;
  /** The home's action, or the dashboard's for one merchant. */
  action: (input: unknown) => Promise<PayoutFormResult>;
  /** Who reads it: the merchant ("Only when I ask") or its ISV ("Only when asked for"). */
  voice?: "merchant" | "isv";
}) {
  const t = useTranslations("payouts.schedule");
  const [values, setValues] = useState<Record<Key, string>>({
    interval: schedule.interval,
    weekly_anchor: schedule.weekly_anchor ?? "monday",
    monthly_anchor: String(schedule.monthly_anchor ?? 1),
    delay_days: String(schedule.delay_days),
    minimum_amount: schedule.minimum_amount ? (schedule.minimum_amount / 100).toFixed(2) : "",
  });
  const [errors, setErrors] = useState<Partial<Record<Key, string>>>({});
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  const set = (key: Key) => (e: { target: { value: string } }) => {
    setSaved(false);
    setValues({ ...values, [key]: e.target.value });
  };
  const described = (key: Key) =>
    errors[key] ? { "aria-invalid": true, "aria-describedby": `schedule-${key}-error` } : {};
  const error = (key: Key) =>
    errors[key] ? (
      <p id={`schedule-${key}-error`} className="mt-1 text-sm text-danger">
        {errors[key]}
      </p>
    ) : null;
  const label = (key: Key) => (
    <label htmlFor={`schedule-${key}`} className="block text-sm font-medium">
      {t(voice === "isv" && key === "delay_days" ? "fields.delay_daysIsv" : `fields.${key}`)}
    </label>
  );
  /** One labelled choice, its error beside it. */
  const select = (key: Key, options: { value: string; label: string }[]) => (
    <div>
      {label(key)}
      <select
        id={`schedule-${key}`}
        value={values[key]}
        onChange={set(key)}
        className={inputClass()}
        {...described(key)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error(key)}
    </div>
  );
  return (
    <form
      noValidate
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        start(async () => {
          const result = await action(values);
          if (result.ok) {
            setErrors({});
            setSaved(true);
            return;
          }
          const next: Partial<Record<Key, string>> = {};
          for (const problem of result.errors) {
            const key = (problem.param.split(".").pop() ?? "interval") as Key;
            const field = key in values ? key : "interval";
            next[field] ??=
              problem.code === "permission_denied"
                ? t("notAllowed")
                : field === "minimum_amount"
                  ? t("invalidMinimum")
                  : t("invalid");
          }
          setErrors(next);
          const first = (Object.keys(values) as Key[]).find((k) => next[k]);
          if (first) document.getElementById(`schedule-${first}`)?.focus();
        });
      }}
    >
      {select(
        "interval",
        payoutIntervals.map((interval) => ({
          value: interval,
          label: t(voice === "isv" && interval === "manual" ? "intervals.manualIsv" : `intervals.${interval}`),
        })),
      )}
      {values.interval === "weekly"
        ? select(
            "weekly_anchor",
            weekdays.map((day) => ({ value: day, label: t(`weekdays.${day}`) })),
          )
        : null}
      {values.interval === "monthly"
        ? select(
            "monthly_anchor",
            Array.from({ length: 31 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
          )
        : null}
      {select(
        "delay_days",
        [1, 2, 3, 4, 5, 6, 7].map((days) => ({ value: String(days), label: t("delayOption", { days }) })),
      )}
      <div>
        {label("minimum_amount")}
        <input
          id="schedule-minimum_amount"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          value={values.minimum_amount}
          onChange={set("minimum_amount")}
          className={inputClass()}
          {...described("minimum_amount")}
        />
        {error("minimum_amount")}
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("save")}
        </button>
        <p role="status" className="text-sm" data-testid="schedule-saved">
          {saved ? t("saved") : ""}
        </p>
      </div>
    </form>
  );
}
