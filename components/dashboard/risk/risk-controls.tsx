"use client";

import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { type RiskAction, riskActions, type RiskRule, riskRules } from "@/lib/schemas/risk";

/** Resolves one alert (its paused payouts go again once no other open alert pauses them). */
export function ResolveButton({ action, label }: { action: () => Promise<{ ok: boolean }>; label: string }) {
  const t = useTranslations("risk.page");
  const [pending, start] = useTransition();
  const [failed, setFailed] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        className="rounded-lg border border-line bg-card px-3 py-1 text-sm font-semibold"
        onClick={() => start(async () => setFailed(!(await action()).ok))}
      >
        {t("resolve")}
      </button>
      {failed ? (
        <span role="alert" className="ml-2 text-sm text-danger">
          {t("resolveFailed")}
        </span>
      ) : null}
    </>
  );
}

/** The ISV's action for each rule (`settings.risk_actions`). */
export function RiskActionsForm({
  current,
  action,
}: {
  current: Record<RiskRule, RiskAction>;
  action: (input: unknown) => Promise<{ ok: boolean }>;
}) {
  const t = useTranslations("risk.page");
  const [values, setValues] = useState(current);
  const [said, setSaid] = useState<"" | "saved" | "failed">("");
  const [pending, start] = useTransition();
  return (
    <form
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => setSaid((await action(values)).ok ? "saved" : "failed"));
      }}
    >
      {riskRules.map((rule) => (
        <div key={rule}>
          <label htmlFor={`risk-action-${rule}`} className="block text-sm font-medium">
            {t(`rules.${rule}`)}
          </label>
          <select
            id={`risk-action-${rule}`}
            value={values[rule]}
            onChange={(e) => {
              setSaid("");
              setValues({ ...values, [rule]: e.target.value as RiskAction });
            }}
            className={inputClass()}
          >
            {riskActions.map((a) => (
              <option key={a} value={a}>
                {t(`actions.${a}`)}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("saveActions")}
        </button>
        <p role="status" className="text-sm" data-testid="risk-actions-saved">
          {said ? t(said) : ""}
        </p>
      </div>
    </form>
  );
}
