import { getLocale, getTranslations } from "next-intl/server";

import { homeLinkOffAction, homeLinkOnAction } from "@/lib/actions/home-links";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import type { PaymentLinkJson } from "@/lib/serializers/payment-link";

import { ConfirmButton } from "./confirm-button";

/** The merchant's payment links: each with its URL and QR code, what it has taken, and its switch. */
export async function PaymentLinkList({ links }: { links: PaymentLinkJson[] }) {
  const t = await getTranslations("merchantHome.links");
  const locale = intlLocale(await getLocale());
  const money = (cents: number) => formatCents(cents, locale);
  if (links.length === 0) return <p className="mt-2">{t("none")}</p>;
  return (
    <ul className="mt-2 divide-y divide-line rounded-lg border border-line bg-card" data-testid="payment-links">
      {links.map((link) => {
        const amount = link.customer_chooses_amount
          ? t("customerChooses", {
              min: money(link.customer_chooses_amount.min),
              max: money(link.customer_chooses_amount.max),
            })
          : money(link.amount ?? 0);
        const what = link.description ? `${link.description} · ${amount}` : amount;
        return (
          <li key={link.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start">
            <img
              src={new URL(link.qr_code_url).pathname}
              alt={t("qrAlt", { what })}
              width={112}
              height={112}
              className="h-28 w-28 shrink-0 rounded border border-line bg-white"
            />
            <div className="min-w-0 flex-1">
              <p className="font-medium break-words">{what}</p>
              <p className="mt-1 font-mono text-sm break-all" data-testid="link-url">
                {link.url}
              </p>
              <p className="mt-1 text-sm text-muted">
                <span className={link.active ? "text-green-800" : "font-semibold"}>
                  {link.active ? t("on") : t("off")}
                </span>
                {" · "}
                {t("paid", { count: link.paid_count })}
              </p>
              <p className="mt-2 flex flex-wrap items-center gap-3">
                <a href={link.url} target="_blank" rel="noreferrer" className="underline">
                  {t("open")}
                </a>
                <ConfirmButton
                  id={link.id}
                  text={link.active ? t("turnOff") : t("turnOn")}
                  label={t("toggleLabel", { action: link.active ? t("turnOff") : t("turnOn"), what })}
                  action={link.active ? homeLinkOffAction : homeLinkOnAction}
                />
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
