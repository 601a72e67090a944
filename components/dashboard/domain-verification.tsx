"use client";
import { useFormatter, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { verifyDomainAction } from "@/lib/actions/dashboard";

export type DomainVerification = {
  domain: string;
  status: "pending" | "verified";
  record: { type: "TXT"; name: string; value: string };
  verified_at: string | null;
} | null;

/** Under the custom-domain field: the DNS record to publish, and a check; or when it was verified. */
export function DomainVerificationPanel({ verification, typed }: { verification: DomainVerification; typed: string }) {
  const t = useTranslations("dashboard");
  const format = useFormatter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<"not_found" | "taken" | null>(null);
  if (!typed) return null;
  if (!verification || verification.domain !== typed.trim().toLowerCase()) {
    return <p className="-mt-2 mb-3 text-sm text-muted">{t("domainSaveFirst")}</p>;
  }
  if (verification.status === "verified" && verification.verified_at) {
    return (
      <p className="-mt-2 mb-3 text-sm text-emerald-800" role="status">
        {t("domainVerified", {
          date: format.dateTime(new Date(verification.verified_at), { dateStyle: "medium", timeStyle: "short" }),
        })}
      </p>
    );
  }
  return (
    <div className="-mt-2 mb-3 rounded-lg border border-line bg-card p-3 text-sm" aria-labelledby="domain-pending">
      <p id="domain-pending" className="mb-2">
        {t("domainPending")}
      </p>
      <dl className="mb-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted">{t("domainRecordType")}</dt>
        <dd>
          <code>{verification.record.type}</code>
        </dd>
        <dt className="text-muted">{t("domainRecordName")}</dt>
        <dd className="min-w-0 break-all">
          <code>{verification.record.name}</code>
        </dd>
        <dt className="text-muted">{t("domainRecordValue")}</dt>
        <dd className="min-w-0 break-all">
          <code>{verification.record.value}</code>
        </dd>
      </dl>
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await verifyDomainAction();
            setError(result.ok ? null : result.error);
          })
        }
        className="rounded-lg border border-line px-3 py-1.5 font-medium disabled:opacity-60"
      >
        {t("domainVerify")}
      </button>
      {error ? (
        <p className="mt-2 text-red-700" role="alert">
          {t(error === "taken" ? "domainTaken" : "domainNotFound")}
        </p>
      ) : null}
    </div>
  );
}
