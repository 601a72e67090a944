"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { PageRequestType, RequestFromPageResult } from "@/lib/actions/request-from-page";
import { typedDollarsToCents } from "@/lib/money";

/**
 * Ask a customer to pay, from the ISV's merchant page or the merchant's home: an invoice (e-mailed
 * when an address is given, else a link to share), a scan-to-pay QR code, or (the home) a card the
 * merchant types in. The amount in dollars as typed, turned into whole cents without floating
 * point; the rules are the API's. With `openAt`, the made request's page opens (`openAt/{id}`)
 * instead of its link being shown.
 */
export function RequestPaymentForm({
  merchantId,
  action,
  types,
  openAt,
  title,
  extra,
  defaultEmail,
}: {
  merchantId: string;
  action: (input: unknown) => Promise<RequestFromPageResult>;
  /** The kinds offered, the first chosen at first (at least one). */
  types: readonly [PageRequestType, ...PageRequestType[]];
  openAt?: string;
  title?: string;
  /** More of the request's body (a customer's page: the `customer` it is for). */
  extra?: Record<string, string>;
  /** The invoice's address to start with (a customer's e-mail). */
  defaultEmail?: string;
}) {
  const t = useTranslations("dashboard");
  const router = useRouter();
  const [type, setType] = useState<PageRequestType>(types[0]);
  const [amount, setAmount] = useState("");
  const [description, setDescription] = useState("");
  const [email, setEmail] = useState(defaultEmail ?? "");
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const input = inputClass();
  return (
    <section aria-labelledby="request-title" className="rounded-lg border border-line bg-card p-4">
      <h2 id="request-title" className="text-lg font-semibold">
        {title ?? t("requestTitle")}
      </h2>
      <form
        className="mt-3 grid gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setMade(null);
          const cents = typedDollarsToCents(amount);
          if (cents === null || cents < 1) {
            setError(t("requestAmountInvalid"));
            document.getElementById("request-amount")?.focus();
            return;
          }
          setError(null);
          start(async () => {
            const result = await action({
              type,
              merchant_id: merchantId,
              amount: cents,
              ...extra,
              ...(type !== "SCAN_TO_PAY" && description.trim() ? { description: description.trim() } : {}),
              ...(type === "INVOICE" && email.trim() ? { email_address: email.trim() } : {}),
            });
            if (!result.ok) return setError(t("requestError", { message: result.error }));
            if (openAt) return router.push(`${openAt}/${result.id}`);
            setMade(result.payUrl);
            setAmount("");
            setDescription("");
            setEmail(defaultEmail ?? "");
            router.refresh();
          });
        }}
      >
        <div>
          <label htmlFor="request-type" className="block text-sm font-medium">
            {t("requestType")}
          </label>
          <select
            id="request-type"
            value={type}
            onChange={(e) => setType(e.target.value as typeof type)}
            className={input}
          >
            {types.map((type) => (
              <option key={type} value={type}>
                {t(`requestTypes.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="request-amount" className="block text-sm font-medium">
            {t("requestAmount")}
          </label>
          <input
            id="request-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "request-error" : undefined}
            className={input}
          />
        </div>
        {type !== "SCAN_TO_PAY" ? (
          <>
            <div>
              <label htmlFor="request-description" className="block text-sm font-medium">
                {t("requestDescription")} <span className="font-normal text-muted">{t("optional")}</span>
              </label>
              <input
                id="request-description"
                value={description}
                maxLength={500}
                onChange={(e) => setDescription(e.target.value)}
                className={input}
              />
            </div>
            {type === "INVOICE" ? (
              <div>
                <label htmlFor="request-email" className="block text-sm font-medium">
                  {t("requestEmail")} <span className="font-normal text-muted">{t("optional")}</span>
                </label>
                <input
                  id="request-email"
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  aria-describedby="request-email-hint"
                  className={input}
                />
                <p id="request-email-hint" className="mt-1 text-sm text-muted">
                  {t("requestEmailHint")}
                </p>
              </div>
            ) : null}
          </>
        ) : null}
        <div className="sm:col-span-2">
          {error ? (
            <p id="request-error" role="alert" className="mb-2 text-sm font-medium text-danger">
              {error}
            </p>
          ) : null}
          <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
            {t("requestSubmit")}
          </button>
          {made ? (
            <p role="status" className="mt-2 break-all">
              {t("requestMade")}{" "}
              <a href={made} className="underline" data-testid="request-made">
                {made}
              </a>
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}
