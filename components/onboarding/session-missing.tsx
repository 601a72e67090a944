import { getTranslations } from "next-intl/server";

import { BrandShell } from "./brand-shell";

export async function SessionMissing() {
  const t = await getTranslations("wizard");
  return (
    <BrandShell branding={null}>
      <h1 className="text-2xl font-semibold">{t("sessionMissingTitle")}</h1>
      <p className="mt-3">{t("sessionMissingBody")}</p>
    </BrandShell>
  );
}
