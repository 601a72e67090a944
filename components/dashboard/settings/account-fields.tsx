"use client";
import { useTranslations } from "next-intl";

import { inputClass } from "@/components/ui/input-class";

import { Input } from "./inputs";

/** The account's onboarding and payments settings as typed (the link lifetime in hours, the fee in dollars). */
export type SettingsDraft = {
  notify: "isv" | "merchant" | "both";
  ttlHours: string;
  allowSkip: boolean;
  required: boolean;
  disputeFee: string;
  origins: string;
};
type Props = { s: SettingsDraft; setS: (next: SettingsDraft) => void };

/** Who is told when underwriting asks, the link's lifetime, the device step's rules. */
export function OnboardingFields({ s, setS }: Props) {
  const t = useTranslations("dashboard");
  return (
    <fieldset className="mb-4 rounded-lg border border-line p-4">
      <legend className="px-1 font-semibold">{t("onboarding")}</legend>
      <div className="mb-3">
        <label htmlFor="notify" className="block text-sm font-medium">
          {t("notifications")}
        </label>
        <select
          id="notify"
          value={s.notify}
          onChange={(e) => setS({ ...s, notify: e.target.value as typeof s.notify })}
          className={inputClass()}
        >
          {(["isv", "merchant", "both"] as const).map((v) => (
            <option key={v} value={v}>
              {t(`notify.${v}`)}
            </option>
          ))}
        </select>
      </div>
      <Input
        id="ttl"
        label={t("linkTtl")}
        value={s.ttlHours}
        onChange={(v) => setS({ ...s, ttlHours: v })}
        type="number"
        hint={t("ttlHint")}
      />
      <div className="mb-2 flex items-center gap-2">
        <input
          id="required"
          type="checkbox"
          className="h-5 w-5"
          checked={s.required}
          onChange={(e) => setS({ ...s, required: e.target.checked })}
        />
        <label htmlFor="required">{t("deviceRequired")}</label>
      </div>
      <div className="flex items-center gap-2">
        <input
          id="allowSkip"
          type="checkbox"
          className="h-5 w-5"
          checked={s.allowSkip}
          onChange={(e) => setS({ ...s, allowSkip: e.target.checked })}
        />
        <label htmlFor="allowSkip">{t("allowSkip")}</label>
      </div>
    </fieldset>
  );
}

/** The dispute fee and the origins allowed to embed the components. */
export function PaymentsFields({ s, setS }: Props) {
  const t = useTranslations("dashboard");
  return (
    <fieldset className="mb-4 rounded-lg border border-line p-4">
      <legend className="px-1 font-semibold">{t("paymentsSettings")}</legend>
      <Input
        id="dispute_fee"
        label={t("disputeFee")}
        value={s.disputeFee}
        onChange={(v) => setS({ ...s, disputeFee: v })}
        hint={t("disputeFeeHint")}
      />
      <div>
        <label htmlFor="embed_origins" className="block text-sm font-medium">
          {t("embedOrigins")}
        </label>
        <textarea
          id="embed_origins"
          rows={3}
          value={s.origins}
          onChange={(e) => setS({ ...s, origins: e.target.value })}
          aria-describedby="embed_origins-hint"
          className={inputClass("font-mono text-sm")}
        />
        <p id="embed_origins-hint" className="mt-1 text-sm text-muted">
          {t("embedOriginsHint")}
        </p>
      </div>
    </fieldset>
  );
}
