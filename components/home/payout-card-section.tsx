import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import { brandName } from "@/lib/payments/brands";
import type { PayoutCardJson } from "@/lib/serializers/payout-card";

import { PayoutCardForm } from "./payout-card-form";

/**
 * The home settings' "Debit card for instant payouts" (docs/reference.md section 20), where the ISV
 * enables instant payouts: the card on file (never its number), from when it receives them, and the
 * card frame to add or replace it after a recent sign-in.
 */
export async function PayoutCardSection({
  card,
  cooling,
  canAdd,
  publishableKey,
  tokenizerOrigin,
  accent,
}: {
  card: PayoutCardJson | null;
  /** The card waits out its cooling-off (lib/domain/payouts/payout-card.ts `payoutCardState`). */
  cooling: boolean;
  canAdd: boolean;
  publishableKey: string;
  tokenizerOrigin: string;
  accent: string;
}) {
  const t = await getTranslations("merchantHome.payoutCard");
  const format = await getFormatter();
  const locale = await getLocale();
  return (
    <section
      id="payout-card"
      aria-labelledby="payout-card-title"
      className="mt-5 rounded-lg border border-line bg-card p-4"
    >
      <h2 id="payout-card-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("intro")}</p>
      <p className="mt-2 font-medium" data-testid="payout-card-on-file">
        {card
          ? t("onFile", {
              brand: brandName(card.brand),
              last4: card.last4,
              month: String(card.exp_month).padStart(2, "0"),
              year: card.exp_year,
            })
          : t("none")}
      </p>
      {card && cooling ? (
        <p className="text-sm" role="status" data-testid="payout-card-cooling">
          {t("usableFrom", {
            date: format.dateTime(new Date(`${card.usable_from}T12:00:00Z`), { dateStyle: "long", timeZone: "UTC" }),
          })}
        </p>
      ) : null}
      {canAdd ? null : (
        <p className="mt-2 text-sm text-muted" data-testid="payout-card-step-up">
          {t("signInFirst")}
        </p>
      )}
      <PayoutCardForm
        publishableKey={publishableKey}
        tokenizerOrigin={tokenizerOrigin}
        locale={locale}
        accent={accent}
        hasCard={card !== null}
        canAdd={canAdd}
      />
    </section>
  );
}
