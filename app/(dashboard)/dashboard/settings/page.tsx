import { getTranslations } from "next-intl/server";
import { requireIsvUser } from "@/lib/dashboard/session";
import { SettingsForm } from "@/components/dashboard/settings-form";
import type { AccountSettings, MerchantDefaults } from "@/lib/schemas/account";
import { serializeAccount } from "@/lib/serializers/account";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("settingsTitle") };
}

export default async function SettingsPage() {
  const { account } = await requireIsvUser();
  const t = await getTranslations("dashboard");
  return (
    <div>
      <h1 className="mb-4 text-2xl font-semibold">{t("settingsTitle")}</h1>
      <SettingsForm
        defaults={account.defaults as MerchantDefaults}
        settings={account.settings as AccountSettings}
        domainVerification={serializeAccount(account).custom_domain_verification}
      />
    </div>
  );
}
