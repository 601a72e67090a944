"use client";
import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { removeFactorAction, renewRecoveryCodesAction } from "@/lib/actions/factors";

import { FactorSetup } from "./factor-setup";
import { RecoveryCodes } from "./recovery-codes";

export type FactorView = {
  id: string;
  kind: "totp" | "passkey";
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

/**
 * The settings' two-step sign-in: the member's factors (remove one; never an owner's or admin's
 * last), its recovery codes left (make ten new ones), and a factor to add.
 */
export function SecuritySection({
  factors,
  codesLeft,
  recoveryUsed,
}: {
  factors: FactorView[];
  codesLeft: number;
  recoveryUsed: boolean;
}) {
  const t = useTranslations("security");
  const format = useFormatter();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [adding, setAdding] = useState(factors.length === 0);
  const refused = (code: string, text: string) =>
    setMessage(code === "reauthentication_required" ? t("errors.fresh") : text);
  return (
    <section id="security" aria-labelledby="security-title" className="mt-8">
      <h2 id="security-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="text-sm text-muted">{t("hint")}</p>
      {recoveryUsed ? (
        <p role="status" className="mt-2 rounded-lg border border-amber-400 bg-card p-3 text-sm">
          {t("recoveryUsed", { count: codesLeft })}
        </p>
      ) : null}
      <ul className="mt-2 space-y-2" data-testid="factors">
        {factors.map((f) => (
          <li
            key={f.id}
            className="flex flex-wrap items-center gap-3 rounded-lg border border-line bg-card p-3 text-sm"
          >
            <span className="min-w-0 grow">
              <span className="font-medium">{f.kind === "totp" ? t("kinds.totp") : f.name}</span>
              <span className="block text-muted">
                {f.kind === "passkey" ? `${t("kinds.passkey")} · ` : ""}
                {t("added")}: {format.dateTime(f.createdAt, { dateStyle: "medium" })}
                {f.lastUsedAt
                  ? ` · ${t("lastUsed")}: ${format.dateTime(f.lastUsedAt, { dateStyle: "medium", timeStyle: "short" })}`
                  : ""}
              </span>
            </span>
            <button
              type="button"
              disabled={pending}
              aria-label={t("removeNamed", { name: f.kind === "totp" ? t("kinds.totp") : f.name })}
              className="rounded-lg border border-danger px-3 py-1.5 font-medium text-danger"
              onClick={() =>
                start(async () => {
                  const result = await removeFactorAction(f.id);
                  if (result.ok) {
                    setMessage(t("removed"));
                    router.refresh();
                  } else refused(result.code, result.message);
                })
              }
            >
              {t("remove")}
            </button>
          </li>
        ))}
      </ul>
      {factors.length === 0 ? <p className="mt-2 text-sm">{t("none")}</p> : null}
      {factors.length > 0 ? (
        <p className="mt-3 text-sm">
          {t("codesLeft", { count: codesLeft })}{" "}
          <button
            type="button"
            disabled={pending}
            className="ml-1 rounded-lg border border-line px-3 py-1.5 font-medium"
            onClick={() =>
              start(async () => {
                const result = await renewRecoveryCodesAction();
                if (result.ok) setCodes(result.value);
                else refused(result.code, result.message);
              })
            }
          >
            {t("renewCodes")}
          </button>
        </p>
      ) : null}
      <p role="status" className="mt-2 text-sm">
        {message ?? ""}
      </p>
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {adding ? (
        <FactorSetup mode="settings" />
      ) : (
        <button
          type="button"
          className="mt-2 rounded-lg border border-line px-4 py-2 font-medium"
          onClick={() => setAdding(true)}
        >
          {t("addFactor")}
        </button>
      )}
    </section>
  );
}
