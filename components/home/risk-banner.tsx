import { getLocale, getTranslations } from "next-intl/server";

import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import type { RiskAlertJson } from "@/lib/serializers/risk-alert";

/**
 * The merchant's banner for each open risk alert (docs/reference.md section 20): what happened and
 * what to do, in words, and what it does to the money (payouts paused, a reserve), naming its ISV.
 */
export async function RiskBanner({ alerts, isvName }: { alerts: RiskAlertJson[]; isvName: string }) {
  if (alerts.length === 0) return null;
  const t = await getTranslations("risk.banner");
  const locale = intlLocale(await getLocale());
  return (
    <>
      {alerts.map((alert) => (
        <div
          key={alert.id}
          role="note"
          className="mt-4 rounded-lg border-2 border-primary bg-card p-4"
          data-testid="risk-banner"
        >
          <p className="font-semibold">
            {t(`what.${alert.rule}`, { amount: formatCents(Number(alert.figures.amount ?? 0), locale) })}
          </p>
          {alert.action === "notify" ? null : <p className="mt-1">{t(`effect.${alert.action}`, { isv: isvName })}</p>}
          <p className="mt-1 text-muted">{t(`todo.${alert.rule}`, { isv: isvName })}</p>
        </div>
      ))}
    </>
  );
}
