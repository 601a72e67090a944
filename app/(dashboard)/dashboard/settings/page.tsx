import { getTranslations } from "next-intl/server";

import { SecuritySection } from "@/components/dashboard/factors/security-section";
import { MoneyOutForm } from "@/components/dashboard/settings/money-out-form";
import { SettingsForm } from "@/components/dashboard/settings-form";
import { SessionsList } from "@/components/dashboard/team/sessions-list";
import { moneyOutSettingsAction } from "@/lib/actions/money-out-settings";
import { memberMay, requireIsvUser } from "@/lib/dashboard/session";
import { brandOf, costProfileOf, settingsOf } from "@/lib/domain/accounts/isv-facts";
import { securityOf } from "@/lib/domain/team/factors";
import { openSessions } from "@/lib/domain/team/sessions";
import { customDomainVerification } from "@/lib/serializers/account";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("settingsTitle") };
}

export default async function SettingsPage({ searchParams }: { searchParams: Promise<{ recovery?: string }> }) {
  const member = await requireIsvUser("account:read");
  const { account } = member;
  const t = await getTranslations("dashboard");
  const team = await getTranslations("team");
  // A role that reads the settings sees them as they are, every control disabled.
  const canEdit = memberMay(member, "account:write");
  const [sessions, security] = await Promise.all([
    openSessions(member.db, member.userId, member.sessionId),
    securityOf(member.db, member.userId),
  ]);
  const m = await getTranslations("moneyOut");
  const settings = settingsOf(account);
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold">{t("settingsTitle")}</h1>
      {canEdit ? null : (
        <p className="mb-4 rounded-lg border border-line bg-card p-3 text-sm" data-testid="settings-read-only">
          {t("readOnly", { role: team(`roles.${member.role}`) })}
        </p>
      )}
      <fieldset disabled={!canEdit} className="min-w-0">
        <SettingsForm
          defaults={brandOf(account)}
          settings={settings}
          domainVerification={customDomainVerification(account)}
        />
        <section aria-labelledby="money-out-title" className="mt-8">
          <h2 id="money-out-title" className="text-lg font-semibold">
            {m("title")}
          </h2>
          <p className="text-sm text-muted">{m("hint")}</p>
          <MoneyOutForm
            initial={{
              merchant_can_change_schedule: settings.merchant_can_change_schedule,
              instant_payouts_enabled: settings.instant_payouts_enabled,
              markup_percent: String(settings.instant_payout_markup_bps / 100),
              instant_payout_fallback: settings.instant_payout_fallback,
              daily_limit: (settings.instant_payout_daily_limit / 100).toFixed(2),
            }}
            costBps={costProfileOf(account).instant_payout_bps}
            action={moneyOutSettingsAction}
          />
        </section>
      </fieldset>
      <SecuritySection {...security} recoveryUsed={(await searchParams).recovery === "used"} />
      <SessionsList sessions={sessions} />
    </div>
  );
}
