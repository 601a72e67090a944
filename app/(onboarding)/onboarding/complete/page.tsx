import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { continueSessionInPortal, loadCompletion } from "@/app/(onboarding)/onboarding/load-session";
import { ExitButton, HostMessage } from "@/components/embed/embed-bridge";
import { RefreshWhile } from "@/components/home/refresh-while";
import { BrandShell } from "@/components/onboarding/brand-shell";
import { DecisionWait } from "@/components/onboarding/decision-wait";
import { ReturnRedirect } from "@/components/onboarding/return-redirect";
import { primaryButtonClass } from "@/components/ui/button";
import { ONBOARDING_COOKIE } from "@/lib/auth/cookies";
import { sessionCookieOptions } from "@/lib/auth/onboarding-session";
import { currentFrame } from "@/lib/home/current-frame";
import { messageOr } from "@/lib/i18n/dynamic";
import { requestNames } from "@/lib/onboarding/request-names";

export async function generateMetadata() {
  const t = await getTranslations("wizard");
  return { title: t("submittedTitle") };
}

/** "Give them now": the session moves into the portal underwriting opened, which asks exactly that. */
async function answerNow() {
  "use server";
  const next = await continueSessionInPortal();
  if (next) (await cookies()).set(ONBOARDING_COOKIE, next.sessionToken, sessionCookieOptions());
  redirect(next ? "/onboarding" : "/onboarding/complete");
}

// The branded page after submitting. It waits for underwriting's decision (in sandbox, within
// seconds), following it live, and says what happened, in the ISV's brand even once underwriting's
// information request superseded the wizard's link with the portal's; it returns to the ISV's return
// URL with that status: at once for a decision, on a click when more is needed (the merchant reads
// what first, and can give it here: "Give them now"), on a click with `COMPLETED` when no decision
// came within a minute.
export default async function CompletePage({ searchParams }: { searchParams: Promise<{ submitted?: string }> }) {
  const t = await getTranslations();
  // This load follows the merchant's submission (the wizard's or a document's that resubmitted): an
  // embedded component says `submitted` to its host page then, not to every later mount.
  const justSubmitted = (await searchParams).submitted === "1";
  const view = await loadCompletion();
  const embedded = await currentFrame();
  const frame = embedded.kind === "active" ? embedded.session : null;
  const branding = view?.branding ?? null;
  const name = branding?.display_name ?? t("wizard.title");
  const status = view?.status;
  const moreInfo = status === "IN_PROGRESS" || status === "NOT_STARTED";
  // Underwriting asked for more: the merchant reads what, then returns on a click.
  const requested = view?.requested ?? [];
  const asked = moreInfo && requested.length > 0;
  const names = requestNames(view?.names);
  const [title, body] =
    status === "APPROVED"
      ? // Inside the ISV's own app, not "<ISV> will be in touch": the merchant is already where it takes payments.
        [t("wizard.approvedTitle"), frame ? t("wizard.approvedBodyHere") : t("wizard.approvedBody", { name })]
      : status === "FAILED"
        ? [t("wizard.declinedTitle"), t("wizard.declinedBody", { name })]
        : moreInfo
          ? [
              t("wizard.moreInfoTitle"),
              t(asked ? "wizard.moreInfoBody" : frame ? "wizard.moreInfoReopenHere" : "wizard.moreInfoReopen", {
                name,
              }),
            ]
          : status === "COMPLETED"
            ? [t("wizard.submittedTitle"), t("wizard.decidingBody")]
            : [t("wizard.submittedTitle"), t("wizard.submittedBody", { name })];
  return (
    <BrandShell branding={branding}>
      <div role="status" className="rounded-lg border border-line bg-card p-6">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-3">{body}</p>
        {asked ? (
          <ul className="mt-4 list-disc space-y-1 pl-5" aria-label={t("wizard.moreInfoList")}>
            {requested.map((r) => (
              <li key={`${r.field}-${r.code}`}>
                {messageOr(t, `underwriting.${r.code}`, names(r.field)) ?? r.message}
              </li>
            ))}
          </ul>
        ) : null}
        {asked ? (
          <p className="mt-4 text-sm text-muted">
            {t(
              frame ? "wizard.moreInfoHere" : view?.answerHere ? "wizard.moreInfoNowOrLater" : "wizard.moreInfoMailed",
            )}
          </p>
        ) : null}
        {/* Approved: the way to the merchant's own pages (a sign-in link by e-mail), on this host. */}
        {status === "APPROVED" && !frame ? (
          <p className="mt-4">
            <a href="/home/sign-in" className="font-medium underline" data-testid="open-home">
              {t("wizard.openHome")}
            </a>
          </p>
        ) : null}
        {frame ? (
          <>
            {/* Inside the ISV's page: a submission is said to it; while underwriting decides the
                page follows it; what is asked is answered here, in the frame; otherwise the
                host page decides what comes next. */}
            {status && justSubmitted ? (
              <HostMessage origin={frame.origin} message={{ type: "submitted", status }} />
            ) : null}
            <RefreshWhile active={status === "COMPLETED"} everyMs={2000} forMs={120_000} />
            {moreInfo ? (
              <a href="/embed/v1/onboarding" className={primaryButtonClass("lg", "mt-6 inline-block")}>
                {t("wizard.continue")}
              </a>
            ) : (
              <ExitButton origin={frame.origin} label={t("wizard.continue")} status={status} />
            )}
          </>
        ) : status === "COMPLETED" ? (
          // Underwriting decides within seconds (sandbox): the page waits for it, then returns to the
          // ISV with the real status; past a minute it says what happens next.
          <DecisionWait
            to={view?.target ?? null}
            label={t("wizard.continue")}
            slow={t("wizard.decisionSlow", { name })}
          />
        ) : asked ? (
          // What is asked can be given here and then (a document uploaded, a field corrected), or
          // later from the e-mail: back to the ISV with the status shown.
          <div className="mt-6 flex flex-wrap items-center gap-4">
            {view?.answerHere ? (
              <form action={answerNow}>
                <button type="submit" className={primaryButtonClass()}>
                  {t("wizard.answerNow")}
                </button>
              </form>
            ) : null}
            {view?.target ? (
              <a
                href={view.target}
                className={
                  view.answerHere
                    ? "font-medium underline"
                    : "inline-block rounded-lg bg-primary px-5 py-3 font-semibold text-on-primary"
                }
              >
                {t("wizard.backTo", { name })}
              </a>
            ) : null}
          </div>
        ) : view?.target ? (
          <ReturnRedirect to={view.target} label={t("wizard.continue")} note={t("wizard.redirecting", { name })} />
        ) : null}
      </div>
    </BrandShell>
  );
}
