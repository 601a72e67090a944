"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useTransition } from "react";

import type { CustomerActionResult } from "@/lib/actions/home-customers";

/** Removes a customer's saved card (asked once): it can never be charged again. */
export function DetachMethodButton({
  id,
  label,
  action,
}: {
  id: string;
  label: string;
  action: (id: string) => Promise<CustomerActionResult>;
}) {
  const t = useTranslations("merchantHome.customers");
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      disabled={pending}
      aria-label={t("removeLabel", { card: label })}
      className="min-h-[44px] rounded-lg border border-slate-500 px-3 py-1 text-sm font-medium disabled:opacity-60"
      onClick={() => {
        if (!window.confirm(t("removeConfirm", { card: label }))) return;
        start(async () => {
          await action(id);
          router.refresh();
        });
      }}
    >
      {t("remove")}
    </button>
  );
}
