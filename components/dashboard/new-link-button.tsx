"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { newLinkAction } from "@/lib/actions/dashboard";

export function NewLinkButton({ merchantId }: { merchantId: string }) {
  const t = useTranslations("dashboard");
  const [url, setUrl] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="mt-2">
      <button
        type="button"
        disabled={pending}
        className={primaryButtonClass("md")}
        onClick={() =>
          start(async () => {
            const created = await newLinkAction(merchantId);
            setUrl(created);
            await navigator.clipboard?.writeText(created).catch(() => {});
          })
        }
      >
        {t("newLink")}
      </button>
      {url ? (
        <p role="status" className="mt-2 break-all">
          {t("copied")} <code data-testid="new-link">{url}</code>
        </p>
      ) : null}
    </div>
  );
}
