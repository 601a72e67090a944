import { getFormatter, getLocale, getTranslations } from "next-intl/server";

import type { Dispute } from "@/components/payments/disputes-table";
import { factRow } from "@/components/ui/fact-row";
import { daysToRespond } from "@/lib/domain/disputes/rules";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { emptyEvidence, evidenceFileFields, evidenceTextFields } from "@/lib/schemas/disputes";

/**
 * A charge's dispute as the ISV's dashboard shows it on the payment's page: the reason in words,
 * where it stands (the days left to answer), what it takes, and the evidence the merchant saved.
 */
export async function DisputeSummary({ dispute }: { dispute: Dispute }) {
  const t = await getTranslations("disputes");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const when = (d: Date | null) => (d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : null);
  const evidence = { ...emptyEvidence(), ...dispute.evidence };
  return (
    <section id="dispute" aria-labelledby="dispute-title" className="rounded-lg border border-line bg-card p-4">
      <h2 id="dispute-title" className="text-lg font-semibold">
        {t("detailTitle", { amount: money(dispute.amount) })}
      </h2>
      <p className="mt-1">{t(`reasons.${dispute.reason}`)}</p>
      <dl className="mt-3 space-y-1" data-testid="dispute-summary">
        {factRow(
          t("facts.status"),
          dispute.status === "needs_response"
            ? `${t("statuses.needs_response")} · ${t("respondWithin", { days: daysToRespond(dispute.evidenceDueBy, new Date()) })}`
            : t(`statuses.${dispute.status}`),
        )}
        {factRow(t("facts.due"), when(dispute.evidenceDueBy))}
        {factRow(t("facts.opened"), when(dispute.createdAt))}
        {factRow(t("facts.taken"), `${money(dispute.amount)} + ${money(dispute.fee)}`)}
        {evidenceTextFields.map((f) => factRow(t(`fields.${f}`), evidence[f], undefined, "user-text"))}
        {evidenceFileFields.map((f) => factRow(t(`fields.${f}`), evidence[f], undefined, "id"))}
      </dl>
    </section>
  );
}
