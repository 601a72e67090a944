"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { setDeactivatedAction } from "@/lib/actions/dashboard";

/** Deactivate (payments refused, docs/reference.md section 8) or reactivate a merchant, after a confirmation for the first. */
export function DeactivateButton({ merchantId, deactivated }: { merchantId: string; deactivated: boolean }) {
  const t = useTranslations("dashboard");
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="mt-2">
      <button
        type="button"
        disabled={pending}
        className={`rounded-lg border px-4 py-2 font-semibold ${deactivated ? "border-line bg-card text-ink" : "border-red-700 bg-card text-red-800"}`}
        onClick={() => {
          if (!deactivated && !window.confirm(t("deactivateConfirm"))) return;
          start(async () => {
            const result = await setDeactivatedAction(merchantId, !deactivated);
            setError(result.ok ? null : result.message);
          });
        }}
      >
        {deactivated ? t("reactivate") : t("deactivate")}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
