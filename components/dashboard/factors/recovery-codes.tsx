"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

/** Ten recovery codes, shown once: the member copies or writes them down before going on. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const t = useTranslations("security");
  const [copied, setCopied] = useState(false);
  return (
    <section aria-labelledby="recovery-title" className="rounded-lg border border-line bg-card p-4">
      <h2 id="recovery-title" className="text-lg font-semibold">
        {t("recoveryTitle")}
      </h2>
      <p className="mt-1 text-sm">{t("recoveryIntro")}</p>
      <ol className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded bg-surface px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="mt-3 rounded-lg border border-line px-3 py-1.5 text-sm font-medium"
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true));
        }}
      >
        {t("copy")}
      </button>
      <p role="status" className="mt-1 text-sm">
        {copied ? t("copied") : ""}
      </p>
    </section>
  );
}
