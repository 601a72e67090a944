"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { MoneyOutResult } from "@/lib/actions/money-out-settings";

type Values = {
  merchant_can_change_schedule: boolean;
  instant_payouts_enabled: boolean;
  markup_percent: string;
  instant_payout_fallback: "return" | "standard";
  daily_limit: string;
};
const fieldOf: Record<string, keyof Values> = {
  "settings.instant_payout_markup_bps": "markup_percent",
  "settings.instant_payout_daily_limit": "daily_limit",
};

/** The settings' "Money out" section (docs/reference.md section 20): the schedule's owner and instant payouts. */
export function MoneyOutForm({
  initial,
  costBps,
  action,
}: {
  initial: Values;
  /** The cost profile's `instant_payout_bps`, to say the fee merchants will pay. */
  costBps: number;
  action: (input: unknown) => Promise<MoneyOutResult>;
}) {
  const t = useTranslations("moneyOut");
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setSaved(false);
    setValues({ ...values, [key]: value });
  };
  const markupBps = Math.round(Number(values.markup_percent.replace(",", ".") || 0) * 100);
  const error = (key: keyof Values) =>
    errors[key] ? (
      <p id={`money-out-${key}-error`} className="mt-1 text-sm text-danger">
        {errors[key]}
      </p>
    ) : null;
  const described = (key: keyof Values) =>
    errors[key] ? { "aria-invalid": true, "aria-describedby": `money-out-${key}-error` } : {};
  return (
    <form
      noValidate
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await action(values);
          if (result.ok) {
            setErrors({});
            setSaved(true);
            return;
          }
          const next: Partial<Record<keyof Values, string>> = {};
          for (const p of result.errors) {
            const key = fieldOf[p.param] ?? "markup_percent";
            next[key] ??= t(`problems.${key}`);
          }
          setErrors(next);
          const first = (Object.keys(values) as (keyof Values)[]).find((k) => next[k]);
          if (first) document.getElementById(`money-out-${first}`)?.focus();
        });
      }}
    >
      <label className="flex items-start gap-2 sm:col-span-2">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={values.merchant_can_change_schedule}
          onChange={(e) => set("merchant_can_change_schedule", e.target.checked)}
        />
        <span>{t("scheduleByMerchant")}</span>
      </label>
      <label className="flex items-start gap-2 sm:col-span-2">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4"
          checked={values.instant_payouts_enabled}
          onChange={(e) => set("instant_payouts_enabled", e.target.checked)}
        />
        <span>{t("instantEnabled")}</span>
      </label>
      <div>
        <label htmlFor="money-out-markup_percent" className="block text-sm font-medium">
          {t("markup")}
        </label>
        <input
          id="money-out-markup_percent"
          inputMode="decimal"
          autoComplete="off"
          value={values.markup_percent}
          onChange={(e) => set("markup_percent", e.target.value)}
          className={inputClass()}
          {...described("markup_percent")}
        />
        {error("markup_percent")}
        <p className="mt-1 text-sm text-muted" data-testid="instant-fee-says">
          {t("feeSays", { cost: costBps / 100, total: (costBps + (Number.isFinite(markupBps) ? markupBps : 0)) / 100 })}
        </p>
      </div>
      <div>
        <label htmlFor="money-out-daily_limit" className="block text-sm font-medium">
          {t("dailyLimit")}
        </label>
        <input
          id="money-out-daily_limit"
          inputMode="decimal"
          autoComplete="off"
          value={values.daily_limit}
          onChange={(e) => set("daily_limit", e.target.value)}
          className={inputClass()}
          {...described("daily_limit")}
        />
        {error("daily_limit")}
      </div>
      <div className="sm:col-span-2">
        <label htmlFor="money-out-instant_payout_fallback" className="block text-sm font-medium">
          {t("fallback")}
        </label>
        <select
          id="money-out-instant_payout_fallback"
          value={values.instant_payout_fallback}
          onChange={(e) => set("instant_payout_fallback", e.target.value as Values["instant_payout_fallback"])}
          className={inputClass()}
        >
          <option value="return">{t("fallbacks.return")}</option>
          <option value="standard">{t("fallbacks.standard")}</option>
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("save")}
        </button>
        <p role="status" className="text-sm" data-testid="money-out-saved">
          {saved ? t("saved") : ""}
        </p>
      </div>
    </form>
  );
}
