import { getFormatter, getTranslations } from "next-intl/server";

import { DeleteWebhook, RetryDelivery, WebhookForm } from "@/components/dashboard/developers";
import { KeysList } from "@/components/dashboard/keys/keys-list";
import { NewKeyForm } from "@/components/dashboard/keys/new-key-form";
import { memberMay, requireIsvUser } from "@/lib/dashboard/session";
import { listApiKeys } from "@/lib/domain/accounts/api-keys";
import { listRecentDeliveries } from "@/lib/domain/webhooks/list-recent-deliveries";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { env, isSandbox } from "@/lib/env";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("developersTitle") };
}

// API keys (the account SID; rotating the secret shows the new one once) and webhooks.
export default async function DevelopersPage() {
  const member = await requireIsvUser("webhooks:read");
  const { db, account } = member;
  // Keys and webhooks change only for the roles that may (a view-only member reads them).
  const keysRead = memberMay(member, "api_keys:read");
  const keysWrite = memberMay(member, "api_keys:write");
  const hooksWrite = memberMay(member, "webhooks:write");
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  const hooks = await listWebhooks(db, account.id);
  const deliveries = await listRecentDeliveries(db, account.id);
  const keys = keysRead ? await listApiKeys(db, account.id) : [];
  const k = await getTranslations("apiKeys");
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold">{t("developersTitle")}</h1>
      <section aria-labelledby="docs-title">
        <h2 id="docs-title" className="text-lg font-semibold">
          {t("docsTitle")}
        </h2>
        <p>
          {t("docsBody")}{" "}
          <a href="/docs" className="underline">
            {t("docsLink")}
          </a>{" "}
          ·{" "}
          <a href="/v1/openapi.json" className="underline">
            {t("openapiLink")}
          </a>
        </p>
        <p className="mt-2">
          {t("baseUrl")} <code data-testid="base-url">{env.PUBLIC_BASE_URL}/v1</code> ·{" "}
          {t(isSandbox ? "modeSandbox" : "modeProduction")}
        </p>
      </section>
      <section aria-labelledby="publishable-title">
        <h2 id="publishable-title" className="text-lg font-semibold">
          {t("publishableTitle")}
        </h2>
        <p>{t.rich("publishableBody", { code: (chunks) => <code>{chunks}</code> })}</p>
      </section>
      <section aria-labelledby="keys-title">
        <h2 id="keys-title" className="text-lg font-semibold">
          {k("title")}
        </h2>
        <p>
          {t("accountSid")}: <code data-testid="account-sid">{account.sid}</code>
        </p>
        {keysRead ? (
          <>
            <p className="text-sm text-muted">{k("hint")}</p>
            <KeysList keys={keys} manage={keysWrite} />
            {keysWrite ? <NewKeyForm /> : null}
          </>
        ) : null}
      </section>
      <section>
        <h2 className="text-lg font-semibold">{t("webhooks")}</h2>
        {hooks.length === 0 ? (
          <p>{t("noWebhooks")}</p>
        ) : (
          <ul className="space-y-3">
            {hooks.map((h) => {
              const recent = deliveries.filter((d) => d.webhookId === h.id).slice(0, 5);
              return (
                <li key={h.id} className="rounded-lg border border-line p-3">
                  <p className="break-all font-medium">{h.url}</p>
                  <p className="text-sm text-muted">
                    {h.scopes.join(", ")} · {t(`webhookStatus.${h.status}`)}
                  </p>
                  <h3 className="mt-2 text-sm font-semibold">{t("deliveries")}</h3>
                  {recent.length === 0 ? (
                    <p className="text-sm">{t("noDeliveries")}</p>
                  ) : (
                    <ul className="mt-1 space-y-1 text-sm" data-testid={`deliveries-${h.id}`}>
                      {recent.map((d) => (
                        <li key={d.id} className="flex flex-wrap items-center gap-x-2" data-delivery={d.id}>
                          <span className="text-muted">
                            {format.dateTime(d.createdAt, { dateStyle: "medium", timeStyle: "short" })}
                          </span>
                          <code>{d.eventType}</code>
                          <span className="font-medium">{t(`deliveryStatus.${d.status}`)}</span>
                          {d.lastStatusCode ? <span>HTTP {d.lastStatusCode}</span> : null}
                          {d.lastError ? <span className="text-danger">{d.lastError}</span> : null}
                          {d.status === "pending" && d.nextAttemptAt && d.attempts > 0 ? (
                            <span className="text-muted">
                              {t("nextTry", {
                                when: format.dateTime(d.nextAttemptAt, { dateStyle: "medium", timeStyle: "short" }),
                              })}
                            </span>
                          ) : null}
                          {hooksWrite && (d.status === "failed" || d.status === "canceled") ? (
                            <RetryDelivery
                              webhookId={h.id}
                              deliveryId={d.id}
                              label={t("retryLabel", { event: d.eventType ?? d.id })}
                            />
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  )}
                  {hooksWrite ? <DeleteWebhook id={h.id} url={h.url} /> : null}
                </li>
              );
            })}
          </ul>
        )}
        {hooksWrite ? <WebhookForm /> : null}
      </section>
    </div>
  );
}
