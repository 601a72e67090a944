import { getTranslations } from "next-intl/server";

import { DeactivateButton } from "@/components/dashboard/deactivate-button";
import { factRow as row } from "@/components/ui/fact-row";
import type { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { readerFormats } from "@/lib/i18n/reader-formats";
import type { MerchantJson } from "@/lib/serializers/merchant";

type LatestLink = Awaited<ReturnType<typeof getMerchantActivity>>["latestLink"];

/**
 * The merchant's settings tab: its payment keys (masked, as the API shows them) once provisioned, its
 * latest onboarding link, and last, behind its own confirmation, what cannot be undone lightly.
 */
export async function SettingsSections({
  json,
  link,
  deactivated,
}: {
  json: MerchantJson;
  link: LatestLink;
  deactivated: boolean;
}) {
  const t = await getTranslations("dashboard");
  const { when } = await readerFormats();
  return (
    <>
      {json.payment_keys.gateway_merchant_id || json.payment.terminal_id ? (
        <section aria-labelledby="keys-title">
          <h2 id="keys-title" className="text-lg font-semibold">
            {t("paymentKeys")}
          </h2>
          <dl className="mt-2 space-y-1 font-mono text-sm" data-testid="payment-keys">
            {row(t("gatewayMerchantId"), json.payment_keys.gateway_merchant_id)}
            {row(t("publishableKey"), json.payment.tokenizer_publishable_key)}
            {row(t("merchantApiKey"), json.payment_keys.api_key)}
            {row(t("terminalId"), json.payment.terminal_id)}
            {json.payment_keys.processors.map((p) =>
              row(p.processor_type === "ACH" ? t("processorAch") : t("processorCard"), p.id),
            )}
          </dl>
        </section>
      ) : null}
      <section aria-labelledby="link-title">
        <h2 id="link-title" className="text-lg font-semibold">
          {t("latestLink")}
        </h2>
        {link ? (
          <p>
            <code>{link.id}</code> ·{" "}
            {t("linkCreated", { created: when(link.createdAt), expires: when(link.expiresAt) })}
            {link.supersededAt ? ` (${t("linkSuperseded")})` : ""}
          </p>
        ) : (
          <p>{t("noLink")}</p>
        )}
      </section>
      <section aria-labelledby="danger-title" className="rounded-lg border border-red-200 p-4">
        <h2 id="danger-title" className="text-lg font-semibold">
          {t("dangerZone")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("dangerZoneNote")}</p>
        <DeactivateButton merchantId={json.id} deactivated={deactivated} />
      </section>
    </>
  );
}
