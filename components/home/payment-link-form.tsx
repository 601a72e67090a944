"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { LinkActionResult } from "@/lib/actions/home-links";
import { typedDollarsToCents } from "@/lib/money";

/**
 * A new payment link from the merchant's home (docs/reference.md section 21): a fixed amount, or the
 * customer types it between a least and a most (dollars as typed, whole cents, no floating point).
 */
export function PaymentLinkForm({ action }: { action: (input: unknown) => Promise<LinkActionResult> }) {
  const t = useTranslations("merchantHome.links");
  const router = useRouter();
  const [mode, setMode] = useState<"fixed" | "chooses">("fixed");
  const [amount, setAmount] = useState("");
  const [min, setMin] = useState("");
  const [max, setMax] = useState("");
  const [description, setDescription] = useState("");
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; field?: string } | null>(null);
  const [pending, start] = useTransition();
  const input = inputClass();
  const invalid = (field: string) => (outcome && !outcome.ok && outcome.field === field ? true : undefined);
  const describedBy = (field: string) => (invalid(field) ? "link-outcome" : undefined);
  return (
    <form
      noValidate
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        let amounts: Record<string, unknown>;
        if (mode === "fixed") {
          const cents = typedDollarsToCents(amount);
          if (cents === null || cents < 1) {
            setOutcome({ ok: false, text: t("amountInvalid"), field: "link-amount" });
            document.getElementById("link-amount")?.focus();
            return;
          }
          amounts = { amount: cents };
        } else {
          const least = typedDollarsToCents(min);
          const most = typedDollarsToCents(max);
          if (least === null || most === null || least < 1 || least > most) {
            setOutcome({ ok: false, text: t("rangeInvalid"), field: "link-min" });
            document.getElementById("link-min")?.focus();
            return;
          }
          amounts = { customer_chooses_amount: { min: least, max: most } };
        }
        setOutcome(null);
        start(async () => {
          const result = await action({
            ...amounts,
            ...(description.trim() ? { description: description.trim() } : {}),
          });
          if (!result.ok) return setOutcome({ ok: false, text: t("error", { message: result.message }) });
          setOutcome({ ok: true, text: t("created") });
          setAmount("");
          setMin("");
          setMax("");
          setDescription("");
          router.refresh();
        });
      }}
    >
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium">{t("mode")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {(["fixed", "chooses"] as const).map((m) => (
            <label key={m} className="inline-flex min-h-[44px] items-center gap-2">
              <input type="radio" name="link-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              {t(m)}
            </label>
          ))}
        </div>
      </fieldset>
      {mode === "fixed" ? (
        <div>
          <label htmlFor="link-amount" className="block text-sm font-medium">
            {t("amount")}
          </label>
          <input
            id="link-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={invalid("link-amount")}
            aria-describedby={describedBy("link-amount")}
            className={input}
          />
        </div>
      ) : (
        <>
          <div>
            <label htmlFor="link-min" className="block text-sm font-medium">
              {t("min")}
            </label>
            <input
              id="link-min"
              inputMode="decimal"
              value={min}
              onChange={(e) => setMin(e.target.value)}
              aria-invalid={invalid("link-min")}
              aria-describedby={describedBy("link-min")}
              className={input}
            />
          </div>
          <div>
            <label htmlFor="link-max" className="block text-sm font-medium">
              {t("max")}
            </label>
            <input
              id="link-max"
              inputMode="decimal"
              value={max}
              onChange={(e) => setMax(e.target.value)}
              aria-invalid={invalid("link-min")}
              aria-describedby={describedBy("link-min")}
              className={input}
            />
          </div>
        </>
      )}
      <div className="sm:col-span-2">
        <label htmlFor="link-description" className="block text-sm font-medium">
          {t("description")}
        </label>
        <input
          id="link-description"
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          className={input}
        />
      </div>
      <div className="sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass("md", "min-h-[44px]")}>
          {pending ? t("creating") : t("create")}
        </button>
      </div>
      {outcome ? (
        <p
          id="link-outcome"
          role={outcome.ok ? "status" : "alert"}
          data-testid="link-outcome"
          className={`sm:col-span-2 ${outcome.ok ? "text-green-800" : "text-red-700"}`}
        >
          {outcome.text}
        </p>
      ) : null}
    </form>
  );
}
