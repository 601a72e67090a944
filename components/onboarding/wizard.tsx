"use client";
import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

import type { AgreementDocument } from "@/lib/agreement/agreement-text";
import { inPortal, isReachable, listedSteps, type StepId, stepIds, stepOfField } from "@/lib/onboarding/steps";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

import { DocumentRequest } from "./document-request";
import { BeforeYouStart, FinishLater } from "./finish-later";
import { PortalContext, PreviewContext, useRequestText } from "./portal";
import type { StepProps } from "./step-props";

// Each step's code is its own chunk: a page loads only the step it shows.
const BusinessStep = dynamic(() => import("./steps/business-step").then((m) => m.BusinessStep));
const OwnersStep = dynamic(() => import("./steps/owners-step").then((m) => m.OwnersStep));
const BankStep = dynamic(() => import("./steps/bank-step").then((m) => m.BankStep));
const ProductStep = dynamic(() => import("./steps/product-step").then((m) => m.ProductStep));
const SalesStep = dynamic(() => import("./steps/sales-step").then((m) => m.SalesStep));
const DeviceStep = dynamic(() => import("./steps/device-step").then((m) => m.DeviceStep));
const ReviewStep = dynamic(() => import("./steps/review-step").then((m) => m.ReviewStep));
const AgreementStep = dynamic(() => import("./steps/agreement-step").then((m) => m.AgreementStep));

const components: Record<StepId, React.ComponentType<StepProps>> = {
  business: BusinessStep,
  owners: OwnersStep,
  bank: BankStep,
  product: ProductStep,
  sales: SalesStep,
  device: DeviceStep,
  review: ReviewStep,
  agreement: AgreementStep,
};

const SESSION_KEY = ["onboarding-session"];

/** The wizard frame: progress, the step's heading and its form; each step has its own URL. */
export function Wizard({
  step,
  initialSession,
  agreement,
  preview = false,
  renderedAt = 0,
}: {
  step: StepId;
  initialSession: OnboardingSessionJson;
  agreement: AgreementDocument | null;
  preview?: boolean;
  /** When the server read `initialSession` (ms): a page the browser's Back restores may be older than the last save. */
  renderedAt?: number;
}) {
  const t = useTranslations("wizard");
  // The session as last saved in this tab, kept across the wizard's pages: Back restores a step's
  // page as it was first rendered (before its save), so the newer of the two is shown.
  const queryClient = useQueryClient();
  const [session, setSessionState] = useState(() => {
    const saved = preview ? undefined : queryClient.getQueryState<OnboardingSessionJson>(SESSION_KEY);
    return saved?.data && saved.dataUpdatedAt > renderedAt ? saved.data : initialSession;
  });
  const setSession = (next: OnboardingSessionJson) => {
    if (!preview) queryClient.setQueryData(SESSION_KEY, next);
    setSessionState(next);
  };
  const chips = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // The current step's chip in view (centred) when the one-row list is wider than the screen,
    // again when the screen turns or resizes.
    const centre = () => {
      const list = chips.current;
      const current = list?.querySelector<HTMLElement>("[aria-current=step]");
      if (!list || !current || list.scrollWidth <= list.clientWidth) return;
      const box = list.getBoundingClientRect();
      const chip = current.getBoundingClientRect();
      list.scrollLeft += chip.left - box.left - (box.width - chip.width) / 2;
    };
    centre();
    window.addEventListener("resize", centre);
    return () => window.removeEventListener("resize", centre);
  }, [step]);
  const order = stepIds;
  const index = order.indexOf(step);
  const reachable = (id: StepId) => !preview && isReachable(session, id);
  const Step = components[step];
  const requested = session.requirements.errors;
  const portal = inPortal(session);
  const reasonOf = useRequestText(session);
  // Documents a verification check asked for are asked here, on the step of whom they are about;
  // a step asked for nothing else shows only them.
  const documents = requested.filter(
    (e) => e.field.endsWith(".verification.document") && stepOfField(e.field) === step,
  );
  const onlyDocuments =
    documents.length > 0 && requested.every((e) => stepOfField(e.field) !== step || documents.includes(e));
  const elsewhere = requested.some((e) => stepOfField(e.field) !== step);
  // In the portal only the steps with something asked for (and the signature) are listed.
  const listed = listedSteps(session);
  // The counter and the bar count the steps listed (the portal's few, not all nine).
  const position = Math.max(listed.indexOf(step), 0) + 1;
  // After a save: the next step in order; in the portal, the first one still incomplete.
  const nextHref = portal ? "/onboarding" : `/onboarding/${order[Math.min(index + 1, order.length - 1)]}`;
  return (
    <div>
      <nav aria-label={t("title")} className="mb-6">
        <p className="text-sm text-muted">{t("stepOf", { current: position, total: listed.length })}</p>
        <div aria-hidden="true" className="mt-2 h-1.5 overflow-hidden rounded-full bg-line sm:hidden">
          <div
            className="h-full rounded-full bg-secondary"
            style={{ width: `${Math.round((position / listed.length) * 100)}%` }}
          />
        </div>
        {/* The steps are one row, never wrapped: it fits a desktop, and scrolls sideways on a phone (the current one in view). */}
        <ol ref={chips} tabIndex={0} aria-label={t("stepsList")} className="mt-2 flex gap-1 overflow-x-auto pb-1">
          {listed.map((id) => {
            const done = session.steps.find((s) => s.id === id)?.complete;
            const current = id === step;
            const label = t(`steps.${id}`);
            return (
              <li key={id} className="shrink-0">
                {reachable(id) && !current ? (
                  <Link
                    href={`/onboarding/${id}`}
                    className="inline-block whitespace-nowrap rounded-full border border-line bg-card px-2 py-1 text-sm underline-offset-2 hover:underline"
                  >
                    {done ? "✓ " : ""}
                    {label}
                  </Link>
                ) : (
                  <span
                    aria-current={current ? "step" : undefined}
                    className={`inline-block whitespace-nowrap rounded-full px-2 py-1 text-sm ${current ? "bg-secondary text-on-secondary font-semibold" : "border border-line text-muted"}`}
                  >
                    {done ? "✓ " : ""}
                    {label}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      <h1 className="mb-4 text-2xl font-semibold">{t(`steps.${step}`)}</h1>
      {/* The first screen says what it takes; every step (not the preview) offers to finish later. */}
      {step === "business" && !requested.length ? <BeforeYouStart /> : null}
      {preview || requested.length ? null : <FinishLater session={session} />}
      {requested.length ? (
        <div className="mb-4 rounded-lg border border-primary bg-card p-3" role="note">
          <p>{t("portalIntro")}</p>
          <ul className="mt-2 list-disc pl-5 empty:hidden">
            {requested
              .filter((e) => !documents.includes(e))
              .map((e) => (
                <li key={e.field}>{t("requested", { reason: reasonOf(e) })}</li>
              ))}
          </ul>
        </div>
      ) : null}
      {documents.map((e) => (
        <DocumentRequest key={e.field} request={e} session={session} onSession={setSession} />
      ))}
      {onlyDocuments ? (
        elsewhere ? (
          <Link href={nextHref} className="inline-block rounded-lg border border-line bg-card px-5 py-3 font-semibold">
            {t("continue")}
          </Link>
        ) : null
      ) : (
        <PreviewContext.Provider value={preview}>
          <PortalContext.Provider value={requested}>
            <Step session={session} onSaved={setSession} nextHref={nextHref} agreement={agreement} />
          </PortalContext.Provider>
        </PreviewContext.Provider>
      )}
    </div>
  );
}
