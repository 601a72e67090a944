"use client";
import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";

import { inputClass } from "@/components/ui/input-class";
import { revokeKeyAction, rollKeyAction } from "@/lib/actions/api-keys";
import { type KeyPermissions, keyResources } from "@/lib/auth/permissions";

import { type NewSecret, SecretOnce, useKeyChange } from "./use-key-change";

export type KeyView = {
  id: string;
  name: string;
  last4: string;
  permissions: KeyPermissions | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
};

const expiries = [0, 1, 24, 168] as const;

/** The account's keys that work: one card each (a row of facts on a wide screen); roll and revoke for who may. */
export function KeysList({ keys, manage }: { keys: KeyView[]; manage: boolean }) {
  const [made, setMade] = useState<NewSecret | null>(null);
  return (
    <div>
      <ul className="mt-2 space-y-3" data-testid="api-keys">
        {keys.map((key) => (
          <KeyRow key={key.id} apiKey={key} manage={manage} onSecret={setMade} />
        ))}
      </ul>
      <SecretOnce made={made} />
    </div>
  );
}

function KeyRow({ apiKey, manage, onSecret }: { apiKey: KeyView; manage: boolean; onSecret: (s: NewSecret) => void }) {
  const t = useTranslations("apiKeys");
  const format = useFormatter();
  const [hours, setHours] = useState<number>(24);
  const { error, pending, run } = useKeyChange();
  const when = (d: Date | null, none: string) =>
    d ? format.dateTime(d, { dateStyle: "medium", timeStyle: "short" }) : none;
  const given = apiKey.permissions
    ? keyResources
        .filter((r) => apiKey.permissions?.[r])
        .map((r) => `${t(`resources.${r}`)}: ${t(`access.${apiKey.permissions?.[r] ?? "none"}`)}`)
        .join(", ")
    : null;
  return (
    <li data-key={apiKey.name} className="rounded-lg border border-line bg-card p-3 text-sm">
      <p className="font-medium">
        {apiKey.name}{" "}
        <span className="ml-1 rounded-full bg-surface px-2 py-0.5 text-xs">
          {t(apiKey.permissions ? "restricted" : "standard")}
        </span>
      </p>
      {given ? <p className="mt-1">{given}</p> : null}
      <dl className="mt-1 grid gap-x-4 text-muted sm:grid-cols-4">
        <div>
          <dt className="inline">{t("secret")}: </dt>
          <dd className="inline">{t("endsIn", { last4: apiKey.last4 })}</dd>
        </div>
        <div>
          <dt className="inline">{t("created")}: </dt>
          <dd className="inline">{when(apiKey.createdAt, "")}</dd>
        </div>
        <div>
          <dt className="inline">{t("lastUsed")}: </dt>
          <dd className="inline">{when(apiKey.lastUsedAt, t("never"))}</dd>
        </div>
        <div>
          <dt className="inline">{t("expires")}: </dt>
          <dd className="inline">{when(apiKey.expiresAt, t("noExpiry"))}</dd>
        </div>
      </dl>
      {manage && apiKey.expiresAt === null ? (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor={`roll-${apiKey.id}`} className="block text-xs font-medium">
              <span aria-hidden="true">{t("rollExpiry")}</span>
              <span className="sr-only">{t("rollExpiryOf", { name: apiKey.name })}</span>
            </label>
            <select
              id={`roll-${apiKey.id}`}
              value={hours}
              onChange={(e) => setHours(Number(e.target.value))}
              className={inputClass("w-48")}
            >
              {expiries.map((h) => (
                <option key={h} value={h}>
                  {t(`expiries.${h}`)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            disabled={pending}
            aria-label={t("rollLabel", { name: apiKey.name })}
            onClick={() => run(() => rollKeyAction(apiKey.id, hours), onSecret)}
            className="rounded-lg border border-line px-3 py-2.5 font-medium"
          >
            {t("roll")}
          </button>
          <button
            type="button"
            disabled={pending}
            aria-label={t("revokeLabel", { name: apiKey.name })}
            onClick={() => {
              if (window.confirm(t("revokeConfirm", { name: apiKey.name })))
                run(
                  () => revokeKeyAction(apiKey.id),
                  () => {},
                );
            }}
            className="rounded-lg border border-danger px-3 py-2.5 font-medium text-danger"
          >
            {t("revoke")}
          </button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-danger">
          {error}
        </p>
      ) : null}
    </li>
  );
}
