import { getTranslations } from "next-intl/server";
import { requireIsvUser } from "@/lib/dashboard/session";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { listRecentDeliveries } from "@/lib/domain/webhooks/list-recent-deliveries";
import { RotateKey, WebhookForm, DeleteWebhook } from "@/components/dashboard/developers";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("developersTitle") };
}

// API keys (the account SID; rotating the secret shows the new one once) and webhooks.
export default async function DevelopersPage() {
  const { db, account } = await requireIsvUser();
  const t = await getTranslations("dashboard");
  const hooks = await listWebhooks(db, account.id);
  const deliveries = await listRecentDeliveries(db, account.id);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold">{t("developersTitle")}</h1>
      <section>
        <h2 className="text-lg font-semibold">{t("accountSid")}</h2>
        <p>
          <code data-testid="account-sid">{account.sid}</code>
        </p>
        <RotateKey />
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
                    {h.scopes.join(", ")} · {h.status}
                  </p>
                  <p className="mt-1 text-sm">
                    {t("deliveries")}:{" "}
                    {recent.length === 0 ? t("noDeliveries") : recent.map((d) => `${d.status}${d.lastStatusCode ? ` (${d.lastStatusCode})` : ""}`).join(", ")}
                  </p>
                  <DeleteWebhook id={h.id} url={h.url} />
                </li>
              );
            })}
          </ul>
        )}
        <WebhookForm />
      </section>
    </div>
  );
}
