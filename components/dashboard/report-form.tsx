"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { createReportAction } from "@/lib/actions/dashboard";
import { reportTypes } from "@/lib/schemas/ledger-values";

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Asks for a report of an interval of whole UTC days (from the first day's start to the day after the last). */
export function ReportForm({ merchants }: { merchants: { id: string; name: string }[] }) {
  const t = useTranslations("reports");
  const today = new Date();
  const [type, setType] = useState<(typeof reportTypes)[number]>("balance_transactions");
  const [merchantId, setMerchantId] = useState("");
  const [from, setFrom] = useState(day(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))));
  const [to, setTo] = useState(day(today));
  const [result, setResult] = useState<{ ok: boolean; error?: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="mt-4 grid gap-3 rounded-lg border border-line bg-card p-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const startMs = Date.parse(`${from}T00:00:00Z`);
        const endMs = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
        start(async () =>
          setResult(
            await createReportAction({
              type,
              ...(merchantId ? { merchant_id: merchantId } : {}),
              interval: { start: startMs, end: endMs },
            }),
          ),
        );
      }}
    >
      <div>
        <label htmlFor="report-type" className="block text-sm font-medium">
          {t("type")}
        </label>
        <select
          id="report-type"
          value={type}
          onChange={(e) => setType(e.target.value as (typeof reportTypes)[number])}
          className={inputClass()}
        >
          {reportTypes.map((r) => (
            <option key={r} value={r}>
              {t(`types.${r}`)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="report-merchant" className="block text-sm font-medium">
          {t("merchant")}
        </label>
        <select
          id="report-merchant"
          value={merchantId}
          onChange={(e) => setMerchantId(e.target.value)}
          className={inputClass()}
        >
          <option value="">{t("allMerchants")}</option>
          {merchants.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="report-from" className="block text-sm font-medium">
          {t("from")}
        </label>
        <input
          id="report-from"
          type="date"
          required
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          className={inputClass()}
        />
      </div>
      <div>
        <label htmlFor="report-to" className="block text-sm font-medium">
          {t("to")}
        </label>
        <input
          id="report-to"
          type="date"
          required
          value={to}
          onChange={(e) => setTo(e.target.value)}
          className={inputClass()}
        />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("make")}
        </button>
        <div aria-live="polite">
          {result && !result.ok ? (
            <p role="alert" className="mt-2 text-danger">
              {result.error}
            </p>
          ) : null}
          {result?.ok ? (
            <p role="status" className="mt-2">
              {t("asked")}
            </p>
          ) : null}
        </div>
      </div>
    </form>
  );
}

/** While a report is being made, the page is fetched again every 2 seconds (it stops once none is pending). */
export function RefreshWhilePending({ pending }: { pending: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => router.refresh(), 2_000);
    return () => clearInterval(timer);
  }, [pending, router]);
  return null;
}
