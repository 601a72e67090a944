"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { useTokenizerFrame } from "@/components/pay/use-tokenizer-frame";
import { primaryButtonClass } from "@/components/ui/button";
import {
  homePayoutCardAction,
  homeRemovePayoutCardAction,
  type PayoutCardProblem,
} from "@/lib/actions/home-payout-card";

/**
 * The home's debit card for instant payouts (docs/reference.md section 20): the card fields are the
 * tokenizer's frame on its own origin (this page never sees the number); its token becomes the card.
 * A refusal (a credit or prepaid card, a sign-in too old) is said in words and the frame stays for
 * another card.
 */
export function PayoutCardForm({
  publishableKey,
  tokenizerOrigin,
  locale,
  accent,
  hasCard,
  canAdd,
}: {
  publishableKey: string;
  tokenizerOrigin: string;
  locale: string;
  accent: string;
  hasCard: boolean;
  /** A recent sign-in, payouts not frozen: otherwise only removal is offered. */
  canAdd: boolean;
}) {
  const t = useTranslations("merchantHome.payoutCard");
  const router = useRouter();
  const [problem, setProblem] = useState<PayoutCardProblem | null>(null);
  const [said, setSaid] = useState<"added" | "removed" | null>(null);
  const [pending, start] = useTransition();
  // With a card on file, the frame opens on "Replace debit card"; each card typed gets a fresh frame.
  const [open, setOpen] = useState(false);
  const [typing, setTyping] = useState(0);
  const { frame, height, frameShown, setFrameShown, pageOrigin, measure, tokenize } = useTokenizerFrame(
    tokenizerOrigin,
    () => document.getElementById("payout-card-add")?.click(),
  );
  const src = pageOrigin
    ? `${tokenizerOrigin}/tokenizer/card?key=${encodeURIComponent(publishableKey)}&locale=${locale}&accent=${encodeURIComponent(accent)}&origin=${encodeURIComponent(pageOrigin)}`
    : null;

  const add = () =>
    start(async () => {
      setSaid(null);
      setProblem(null);
      const tokenized = await tokenize();
      // The frame shows what is wrong with a field beside it.
      if (tokenized.type === "invalid") return;
      if (tokenized.type !== "token" || !tokenized.token) return setProblem("failed");
      const answer = await homePayoutCardAction(tokenized.token);
      if (!answer.ok) return setProblem(answer.problem);
      setSaid("added");
      setOpen(false);
      setFrameShown(false);
      setTyping((n) => n + 1);
      router.refresh();
    });

  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-3">
        {hasCard ? (
          <button
            type="button"
            disabled={pending}
            className="rounded-lg border border-line px-4 py-2"
            onClick={() =>
              start(async () => {
                setProblem(null);
                await homeRemovePayoutCardAction();
                setSaid("removed");
                router.refresh();
              })
            }
          >
            {t("remove")}
          </button>
        ) : null}
        {canAdd && hasCard && !open ? (
          <button
            type="button"
            className={primaryButtonClass("md", "py-2.5")}
            onClick={() => {
              setSaid(null);
              setOpen(true);
            }}
          >
            {t("replace")}
          </button>
        ) : null}
      </div>
      {canAdd && (!hasCard || open) ? (
        <form
          noValidate
          className="mt-3 space-y-3"
          aria-busy={pending}
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <div className="relative" style={{ height }}>
            {src ? (
              <iframe
                key={typing}
                ref={frame}
                src={src}
                onLoad={measure}
                title={t("frame")}
                className={`block w-full border-0 ${frameShown ? "" : "opacity-0"}`}
                style={{ height }}
                data-testid="tokenizer-frame"
              />
            ) : null}
            {frameShown ? null : (
              <div className="absolute inset-0" role="status">
                <span className="sr-only">{t("frameLoading")}</span>
                <div
                  aria-hidden="true"
                  className="h-11 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none"
                />
              </div>
            )}
          </div>
          <button id="payout-card-add" type="submit" disabled={pending} className={primaryButtonClass("md", "py-2.5")}>
            {t("add")}
          </button>
        </form>
      ) : null}
      <p role="status" className="mt-2 text-sm" data-testid="payout-card-status">
        {said ? t(said) : ""}
      </p>
      {problem ? (
        <p role="alert" className="mt-1 text-sm text-danger" data-testid="payout-card-problem">
          {t(`problems.${problem}`)}
        </p>
      ) : null}
    </div>
  );
}
