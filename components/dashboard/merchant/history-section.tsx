import { getFormatter, getTranslations } from "next-intl/server";

import type { getMerchantActivity } from "@/lib/domain/merchants/get-merchant-activity";
import { messageOr } from "@/lib/i18n/dynamic";
import type { OnboardingStatus } from "@/lib/schemas/application";

type MerchantEvent = Awaited<ReturnType<typeof getMerchantActivity>>["history"][number];

/** The merchant's events as a status history: each in words ("Information updated"), never its type. */
export async function HistorySection({ events }: { events: MerchantEvent[] }) {
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  // An unknown type in the reader's words too.
  const eventName = (type: string) => messageOr(t, `eventNames.${type.replace(".", "__")}`) ?? t("eventOther");
  return (
    <section>
      <h2 className="text-lg font-semibold">{t("history")}</h2>
      <ol className="mt-2 space-y-1">
        {events.map((e) => {
          const name = eventName(e.type);
          const status = t(
            `statusNames.${(e.data as { lead_onboarding_status: OnboardingStatus }).lead_onboarding_status}`,
          );
          return (
            <li key={e.id}>
              <span className="text-muted">
                {format.dateTime(e.createdAt, { dateStyle: "medium", timeStyle: "short" })}
              </span>{" "}
              · {name}
              {/* The status it left the merchant in, unless the event says it already ("Approved"). */}
              {status === name ? null : ` · ${status}`}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
