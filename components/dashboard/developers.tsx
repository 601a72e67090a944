"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { createWebhookAction, deleteWebhookAction, retryDeliveryAction } from "@/lib/actions/dashboard";
import { type WebhookScope, webhookScopes } from "@/lib/events/catalogue";

export function WebhookForm() {
  const t = useTranslations("dashboard");
  const [url, setUrl] = useState("");
  const [scopes, setScopes] = useState<WebhookScope[]>(["merchant"]);
  const [result, setResult] = useState<{ ok: boolean; secret?: string; error?: string } | null>(null);
  const [pending, start] = useTransition();
  return (
    <form
      className="mt-4 rounded-lg border border-line p-4"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => setResult(await createWebhookAction({ url, scopes })));
      }}
    >
      <label htmlFor="webhook-url" className="block text-sm font-medium">
        {t("webhookUrl")}
      </label>
      <input
        id="webhook-url"
        type="url"
        required
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        className={inputClass()}
      />
      <fieldset className="mt-3">
        <legend className="text-sm font-medium">{t("scopes")}</legend>
        {webhookScopes.map((s) => (
          <label key={s} className="mr-4 inline-flex items-center gap-2">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={scopes.includes(s)}
              onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
            />{" "}
            {t(`scopeNames.${s}`)}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={pending || scopes.length === 0} className={primaryButtonClass("md", "mt-3")}>
        {t("addWebhook")}
      </button>
      <div aria-live="polite">
        {result?.ok ? (
          <p role="status" className="mt-2 break-all">
            {t("webhookSecret")} <code>{result.secret}</code>
          </p>
        ) : null}
        {result && !result.ok ? (
          <p role="alert" className="mt-2 text-danger">
            {result.error}
          </p>
        ) : null}
      </div>
    </form>
  );
}

export function DeleteWebhook({ id, url }: { id: string; url: string }) {
  const t = useTranslations("dashboard");
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => start(() => deleteWebhookAction(id))}
      className="mt-2 rounded border border-line px-3 py-1 text-sm"
    >
      {t("deleteWebhook", { url })}
    </button>
  );
}

/** Sends a delivery again now (and re-enables its endpoint if a 410 had disabled it). */
export function RetryDelivery({
  webhookId,
  deliveryId,
  label,
}: {
  webhookId: string;
  deliveryId: string;
  label: string;
}) {
  const t = useTranslations("dashboard");
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span>
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        onClick={() =>
          start(async () => {
            const result = await retryDeliveryAction(webhookId, deliveryId);
            setMessage(result.ok ? t("retryQueued") : result.message);
          })
        }
        className="rounded border border-line px-2 py-0.5 text-sm"
      >
        {t("retry")}
      </button>
      {message ? (
        <span role="status" className="ml-2 text-sm">
          {message}
        </span>
      ) : null}
    </span>
  );
}
