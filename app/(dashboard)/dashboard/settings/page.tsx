import { getTranslations } from "next-intl/server";

import { SettingsForm } from "@/components/dashboard/settings-form";
import { requireIsvUser } from "@/lib/dashboard/session";
import { brandOf, settingsOf } from "@/lib/domain/accounts/isv-facts";
import { customDomainVerification } from "@/lib/serializers/account";

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
        defaults={brandOf(account)}
        settings={settingsOf(account)}
        domainVerification={customDomainVerification(account)}
      />
    </div>
  );
}
