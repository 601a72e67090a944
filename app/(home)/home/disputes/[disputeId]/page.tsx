import Link from "next/link";
import { notFound } from "next/navigation";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { cache } from "react";

import { DisputeEvidenceForm } from "@/components/home/dispute-evidence-form";
import { HomeShell } from "@/components/home/home-shell";
import { RefreshWhile } from "@/components/home/refresh-while";
import { homeAcceptDisputeAction, homeSaveEvidenceAction, homeSubmitDisputeAction } from "@/lib/actions/home";
import { brandOf } from "@/lib/domain/accounts/isv-facts";
import { findDispute } from "@/lib/domain/disputes/find-dispute";
import { daysToRespond, filledEvidence, lostUnanswered, whyNotAnswerable } from "@/lib/domain/disputes/rules";
import { allows } from "@/lib/domain/embed/account-sessions";
import { listMerchantFiles } from "@/lib/domain/files/create-file";
import { nullIfNotFound } from "@/lib/errors";
import { requireMerchant } from "@/lib/home/session";
import { intlLocale } from "@/lib/i18n/locales";
import { businessName } from "@/lib/merchants/facts";
import { formatCents } from "@/lib/money";
import { emptyEvidence, evidenceFileFields, evidenceTextFields } from "@/lib/schemas/disputes";

// Once per request: the metadata and the page ask for the same dispute, within the signed-in
// merchant's own (another merchant's dispute id: not found).
const load = cache(async (disputeId: string) => {
  const { db, merchant, scope, isv, frame } = await requireMerchant({ components: ["disputes", "payments"] });
  // Inside an embedded component without dispute_management, the dispute is read only.
  const manages =
    !frame || allows(frame, "disputes", "dispute_management") || allows(frame, "payments", "dispute_management");
  const dispute = await findDispute(db, scope, disputeId).catch(nullIfNotFound);
  if (!dispute) notFound();
  return { dispute, db, isv, merchant, scope, manages };
});

export async function generateMetadata({ params }: { params: Promise<{ disputeId: string }> }) {
  const t = await getTranslations("disputes");
  const { dispute } = await load((await params).disputeId);
  return { title: t("detailTitle", { amount: formatCents(dispute.amount, intlLocale(await getLocale())) }) };
}

// /home/disputes/{id}: one dispute, its reason in plain words and what evidence helps, and while it
// waits for an answer a form that saves as the merchant types (files as they are picked), with
// submit and accept behind a confirmation; after that, what was sent and the outcome.
export default async function HomeDisputePage({ params }: { params: Promise<{ disputeId: string }> }) {
  const { dispute, db, isv, merchant, scope, manages } = await load((await params).disputeId);
  const t = await getTranslations("disputes");
  const format = await getFormatter();
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  const evidence = { ...emptyEvidence(), ...dispute.evidence };
  const fileIds = new Set(evidenceFileFields.map((f) => evidence[f]).filter((id): id is string => !!id));
  const names = Object.fromEntries(
    (await listMerchantFiles(db, scope, merchant.id)).filter((f) => fileIds.has(f.id)).map((f) => [f.id, f.filename]),
  );
  const answerable = whyNotAnswerable(dispute, new Date()) === null;
  const when = (d: Date) => format.dateTime(d, { dateStyle: "long", timeStyle: "short" });
  const expired = lostUnanswered(dispute);
  const filled = filledEvidence(evidence);
  return (
    <HomeShell branding={brandOf(isv)} business={businessName(merchant) || merchant.id} section="disputes">
      <RefreshWhile active={dispute.status === "under_review"} />
      <div className="space-y-6">
        <div>
          <Link href="/home/disputes" className="text-sm underline">
            {t("all")}
          </Link>
          <h1 className="mt-2 text-2xl font-semibold">{t("detailTitle", { amount: money(dispute.amount) })}</h1>
        </div>
        <section className="rounded-lg border border-line bg-card p-4" data-testid="dispute-facts">
          <p className="font-medium">{t(`reasons.${dispute.reason}`)}</p>
          <p className="mt-2">{t("money", { amount: money(dispute.amount), fee: money(dispute.fee) })}</p>
          <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-2">
            <div>
              <dt className="text-sm text-muted">{t("facts.status")}</dt>
              <dd className="font-medium" data-testid="dispute-status">
                {t(`statuses.${dispute.status}`)}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-muted">{t("facts.due")}</dt>
              <dd>
                {when(dispute.evidenceDueBy)}
                {dispute.status === "needs_response" ? (
                  <span className="block text-sm font-medium" data-testid="dispute-days">
                    {t("respondWithin", { days: daysToRespond(dispute.evidenceDueBy, new Date()) })}
                  </span>
                ) : null}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-muted">{t("facts.opened")}</dt>
              <dd>{when(dispute.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-sm text-muted">{t("facts.payment")}</dt>
              <dd>
                <Link href={`/home/payments/${dispute.chargeId}`} className="underline">
                  {t("facts.openPayment")}
                </Link>
              </dd>
            </div>
          </dl>
        </section>
        {dispute.status !== "needs_response" ? (
          <div role="status" className="rounded-lg border-2 border-primary bg-card p-4" data-testid="dispute-outcome">
            {dispute.status === "under_review"
              ? t("outcome.under_review", { date: dispute.submittedAt ? when(dispute.submittedAt) : "—" })
              : dispute.status === "won"
                ? t("outcome.won", { amount: money(dispute.amount) })
                : expired
                  ? t("outcome.expired", { amount: money(dispute.amount) })
                  : t("outcome.lost", { amount: money(dispute.amount) })}
          </div>
        ) : null}
        {answerable && manages ? (
          <>
            <p className="max-w-prose">{t(`helps.${dispute.reason}`)}</p>
            <DisputeEvidenceForm
              disputeId={dispute.id}
              amount={money(dispute.amount)}
              initial={evidence}
              fileNames={names}
              save={homeSaveEvidenceAction.bind(null, dispute.id)}
              submit={homeSubmitDisputeAction.bind(null, dispute.id)}
              accept={homeAcceptDisputeAction.bind(null, dispute.id)}
            />
          </>
        ) : (
          <section aria-labelledby="sent-title">
            <h2 id="sent-title" className="text-lg font-semibold">
              {t("sent")}
            </h2>
            {filled.length === 0 || !dispute.submittedAt ? (
              <p className="mt-2">{t("noEvidence")}</p>
            ) : (
              <dl className="mt-2 space-y-3" data-testid="dispute-sent">
                {evidenceTextFields
                  .filter((f) => evidence[f])
                  .map((f) => (
                    <div key={f}>
                      <dt className="text-sm text-muted">{t(`fields.${f}`)}</dt>
                      <dd className="break-words whitespace-pre-wrap" data-user-text>
                        {evidence[f]}
                      </dd>
                    </div>
                  ))}
                {evidenceFileFields
                  .filter((f) => evidence[f])
                  .map((f) => (
                    <div key={f}>
                      <dt className="text-sm text-muted">{t(`fields.${f}`)}</dt>
                      <dd>
                        <a href={`/home/files/${evidence[f]}`} className="break-all underline">
                          {names[evidence[f] ?? ""] ?? evidence[f]}
                        </a>
                      </dd>
                    </div>
                  ))}
              </dl>
            )}
          </section>
        )}
      </div>
    </HomeShell>
  );
}
