import { getLocale, getTranslations } from "next-intl/server";

import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

/** The merchant's balance from the ledger: on its way (pending), ready to be paid out (available), held back (reserved). */
export async function BalanceCard({
  balance,
  className = "",
  title,
  forIsv = false,
}: {
  balance: { available: number; pending: number; reserved: number };
  className?: string;
  /** The heading (the dashboard's: the merchant's balance; the home's: "Your balance"). */
  title?: string;
  /** The ISV's view of its merchant's balance: "the merchant's bank", not "your bank". */
  forIsv?: boolean;
}) {
  const t = await getTranslations("balance");
  const locale = intlLocale(await getLocale());
  const parts = [
    ["pending", balance.pending, t("pendingHint")],
    ["available", balance.available, forIsv ? t("availableHintIsv") : t("availableHint")],
    ...(balance.reserved !== 0 ? [["reserved", balance.reserved, t("reservedHint")] as const] : []),
  ] as const;
  return (
    <section
      className={`rounded-lg border border-line bg-card p-4 ${className}`}
      data-testid="balance"
      aria-labelledby="balance-title"
    >
      <h2 id="balance-title" className="text-sm text-muted">
        {title ?? t("title")}
      </h2>
      <dl className="mt-2 grid gap-3 sm:grid-cols-3">
        {parts.map(([key, cents, hint]) => (
          <div key={key} data-testid={`balance-${key}`}>
            <dt className="text-sm font-medium">{t(key)}</dt>
            <dd className={`text-xl font-semibold tabular-nums ${cents < 0 ? "text-danger" : ""}`}>
              {formatCents(cents, locale)}
            </dd>
            <dd className="text-xs text-muted">{hint}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
