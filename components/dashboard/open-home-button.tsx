"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { openMerchantHomeAction } from "@/lib/actions/dashboard";

/**
 * "Open this merchant's home" in a new tab, signed in by a single-use login link made on the click.
 * The tab is opened at once (a tab opened after an await is a pop-up the browser blocks) and sent to
 * the link when it is made; the new tab cannot reach back to this page (no opener).
 */
export function OpenHomeButton({ merchantId }: { merchantId: string }) {
  const t = useTranslations("dashboard");
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <button
        type="button"
        disabled={pending}
        className="rounded-lg border border-line bg-card px-4 py-2 font-semibold"
        onClick={() => {
          const tab = window.open("about:blank", "_blank");
          if (tab) tab.opener = null;
          start(async () => {
            const result = await openMerchantHomeAction(merchantId);
            if (result.ok && result.url) {
              setError(null);
              if (tab) tab.location.href = result.url;
              else window.location.href = result.url;
            } else {
              tab?.close();
              setError(result.message || t("openHomeFailed"));
            }
          });
        }}
      >
        {t("openHome")}
        <span className="sr-only"> {t("opensInNewTab")}</span>
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
