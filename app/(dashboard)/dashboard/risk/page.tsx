import Link from "next/link";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { ResolveButton, RiskActionsForm } from "@/components/dashboard/risk/risk-controls";
import { DataTable } from "@/components/ui/data-table";
import { resolveRiskAlertAction, riskActionsAction } from "@/lib/actions/risk";
import { requireIsvUser } from "@/lib/dashboard/session";
import { settingsOf } from "@/lib/domain/accounts/isv-facts";
import { listMerchants } from "@/lib/domain/merchants/list-merchants";
import { listRiskAlerts } from "@/lib/domain/risk/risk-alerts";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";
import { type RiskAlertJson, serializeRiskAlert } from "@/lib/serializers/risk-alert";

export async function generateMetadata() {
  const t = await getTranslations("risk.page");
  return { title: t("title") };
}

// /dashboard/risk (docs/reference.md section 20): the daily risk job's open alerts, each with its
// figures in words and what was done, resolved here; the recent resolved ones; each rule's action.
export default async function RiskPage() {
  const { db, account } = await requireIsvUser("merchants:read");
  const t = await getTranslations("risk.page");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const scope = { isvAccountId: account.id };
  const [open, resolved, merchantPage] = await Promise.all([
    listRiskAlerts(db, scope, { status: "open", limit: 100 }),
    listRiskAlerts(db, scope, { status: "resolved", limit: 20 }),
    listMerchants(db, account.id, { limit: 100 }),
  ]);
  const names = new Map(merchantPage.rows.map((m) => [m.id, businessName(m) || m.id]));
  const money = (v: number | string | undefined) => formatCents(Number(v ?? 0), locale);
  const rate = (bps: number | string | undefined) =>
    format.number(Number(bps ?? 0) / 10_000, { style: "percent", maximumFractionDigits: 2 });
  const figures = (a: RiskAlertJson) => {
    const f = a.figures;
    switch (a.rule) {
      case "volume_over_declared":
        return t("figures.volume_over_declared", {
          volume: money(f.month_volume),
          limit: money(f.limit),
          declared: money(f.declared_monthly),
        });
      case "large_ticket":
        return t("figures.large_ticket", { amount: money(f.amount), limit: money(f.limit) });
      case "refund_rate":
        return t("figures.refund_rate", { refunds: money(f.refunds), volume: money(f.volume), rate: rate(f.rate_bps) });
      case "dispute_rate":
        return t("figures.dispute_rate", {
          disputes: Number(f.disputes),
          charges: Number(f.card_charges),
          rate: rate(f.rate_bps),
        });
      case "decline_spike":
        return t("figures.decline_spike", { declines: Number(f.declines), attempts: Number(f.attempts) });
    }
  };
  const when = (d: Date) => format.dateTime(d, { dateStyle: "medium" });
  const rows = (alerts: RiskAlertJson[], resolvable: boolean) =>
    alerts.map((a) => (
      <tr key={a.id} className="border-b border-line align-top" data-testid={`risk-${a.id}`}>
        <td className="py-2 pr-3">
          <Link href={`/dashboard/merchants/${a.merchant_id}?tab=payouts`} className="underline">
            {names.get(a.merchant_id) ?? a.merchant_id}
          </Link>
          <p className="text-sm text-muted">{when(new Date(a.created_at))}</p>
        </td>
        <td className="py-2 pr-3">
          <p className="font-medium">{t(`rules.${a.rule}`)}</p>
          <p className="text-sm">{figures(a)}</p>
        </td>
        <td className="py-2 pr-3">{t(`actions.${a.action}`)}</td>
        <td className="py-2">
          {resolvable ? (
            <ResolveButton
              action={resolveRiskAlertAction.bind(null, a.id)}
              label={t("resolveLabel", {
                rule: t(`rules.${a.rule}`),
                merchant: names.get(a.merchant_id) ?? a.merchant_id,
              })}
            />
          ) : (
            t(`resolvedBy.${a.resolved_by ?? "isv"}`)
          )}
        </td>
      </tr>
    ));
  const columns = [{ label: t("merchant") }, { label: t("rule") }, { label: t("action") }, { label: t("status") }];
  return (
    <>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-1 text-muted">{t("intro")}</p>
      <div className="mt-6">
        <DataTable
          id="risk-open"
          title={t("open")}
          testId="risk-open"
          empty={open.rows.length ? null : t("noneOpen")}
          columns={columns}
        >
          {rows(open.rows.map(serializeRiskAlert), true)}
        </DataTable>
      </div>
      <section aria-labelledby="risk-actions-title" className="mt-8">
        <h2 id="risk-actions-title" className="text-lg font-semibold">
          {t("actionsTitle")}
        </h2>
        <p className="text-sm text-muted">{t("actionsHint")}</p>
        <RiskActionsForm current={settingsOf(account).risk_actions} action={riskActionsAction} />
      </section>
      <div className="mt-8">
        <DataTable
          id="risk-resolved"
          title={t("resolved")}
          testId="risk-resolved"
          empty={resolved.rows.length ? null : t("noneResolved")}
          columns={columns}
        >
          {rows(resolved.rows.map(serializeRiskAlert), false)}
        </DataTable>
      </div>
    </>
  );
}
