"use client";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { PrimaryButton } from "@/components/ui/button";
import { type SaveResult, saveSettingsAction } from "@/lib/actions/dashboard";
import { typedDollarsToCents } from "@/lib/money";
import { type AccountSettings, DEFAULT_DISPUTE_FEE, type MerchantDefaults } from "@/lib/schemas/account";

import type { DomainVerification } from "./domain-verification";
import { OnboardingFields, PaymentsFields, type SettingsDraft } from "./settings/account-fields";
import { type BrandingDraft, BrandingFields } from "./settings/branding-fields";
import { hex } from "./settings/inputs";
import { WizardPreview } from "./settings/wizard-preview";

/** Cents as the dollars a person would type ("15.00"), by integer arithmetic. */
const centsAsDollars = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

// Settings with a live preview of the real wizard: what is typed shows in the preview before saving.
export function SettingsForm({
  defaults,
  settings,
  domainVerification,
}: {
  defaults: MerchantDefaults;
  settings: AccountSettings;
  domainVerification: DomainVerification;
}) {
  const t = useTranslations("dashboard");
  const [b, setB] = useState<BrandingDraft>({
    display_name: defaults.display_name,
    logo: defaults.logo,
    primary_color: defaults.primary_color,
    secondary_color: defaults.secondary_color,
    redirect_url: defaults.redirect_url ?? "",
    custom_domain: defaults.custom_domain ?? "",
    support_email: defaults.support?.email ?? "",
    support_phone: defaults.support?.phone ?? "",
  });
  const [s, setS] = useState<SettingsDraft>({
    notify: settings.notifications.information_requested,
    ttlHours: String(settings.onboarding_link_ttl_seconds / 3600),
    allowSkip: settings.allow_skip_device_selection,
    required: settings.device_selection_required,
    disputeFee: centsAsDollars(settings.dispute_fee ?? DEFAULT_DISPUTE_FEE),
    origins: (settings.embed_allowed_origins ?? []).join("\n"),
  });
  const [result, setResult] = useState<SaveResult | null>(null);
  const [pending, start] = useTransition();
  const set = (k: keyof typeof b) => (v: string) => setB((x) => ({ ...x, [k]: v }));

  // Errors say which field, in the form's words and units (the link lifetime in hours, not seconds).
  const labels: Record<string, string> = {
    "defaults.display_name": t("displayName"),
    "defaults.logo": t("logo"),
    "defaults.primary_color": t("primary"),
    "defaults.secondary_color": t("secondary"),
    "defaults.redirect_url": t("redirectUrl"),
    "defaults.custom_domain": t("customDomain"),
    "defaults.support.email": t("supportEmail"),
    "defaults.support.phone": t("supportPhone"),
    "settings.onboarding_link_ttl_seconds": t("linkTtl"),
    "settings.dispute_fee": t("disputeFee"),
  };
  const words = (e: { param: string; message: string }) =>
    e.param === "settings.onboarding_link_ttl_seconds"
      ? t("ttlRange")
      : e.param.startsWith("settings.embed_allowed_origins")
        ? `${t("embedOrigins")}: ${e.message}`
        : `${labels[e.param] ?? e.param}: ${e.message}`;

  const save = () => {
    const hours = Number(s.ttlHours);
    if (!Number.isFinite(hours) || hours < 1 || hours > 168) {
      setResult({ ok: false, errors: [{ param: "settings.onboarding_link_ttl_seconds", message: "" }] });
      return;
    }
    const disputeFee = typedDollarsToCents(s.disputeFee);
    if (disputeFee === null) {
      setResult({ ok: false, errors: [{ param: "settings.dispute_fee", message: t("amountFormat") }] });
      return;
    }
    const badColour = (["primary_color", "secondary_color"] as const).find((k) => !hex.test(b[k]));
    if (badColour) {
      setResult({ ok: false, errors: [{ param: `defaults.${badColour}`, message: t("colourFormat") }] });
      return;
    }
    start(async () => {
      setResult(
        await saveSettingsAction({
          defaults: {
            display_name: b.display_name,
            logo: b.logo,
            primary_color: b.primary_color,
            secondary_color: b.secondary_color,
            redirect_url: b.redirect_url || null,
            custom_domain: b.custom_domain || null,
            support:
              b.support_email || b.support_phone
                ? {
                    ...(b.support_email ? { email: b.support_email } : {}),
                    ...(b.support_phone ? { phone: b.support_phone } : {}),
                  }
                : null,
          },
          settings: {
            notifications: { information_requested: s.notify },
            onboarding_link_ttl_seconds: Math.round(Number(s.ttlHours) * 3600),
            allow_skip_device_selection: s.allowSkip,
            device_selection_required: s.required,
            dispute_fee: disputeFee,
            embed_allowed_origins: s.origins
              .split(/\s+/)
              .map((o) => o.trim())
              .filter(Boolean),
          },
        }),
      );
    });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_1fr]">
      <form
        className="min-w-0"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <BrandingFields b={b} set={set} domainVerification={domainVerification} />
        <OnboardingFields s={s} setS={setS} />
        <PaymentsFields s={s} setS={setS} />
        <div aria-live="polite">
          {result?.ok ? (
            <p role="status" className="mb-3 font-medium">
              {t("saved")}
            </p>
          ) : null}
          {result && !result.ok ? (
            <div role="alert" className="mb-3 rounded-lg border border-danger p-3 text-danger">
              <p>{t("saveError")}</p>
              <ul className="list-disc pl-5">
                {result.errors.map((e) => (
                  <li key={e.param}>{words(e)}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <PrimaryButton type="submit" disabled={pending}>
          {t("save")}
        </PrimaryButton>
      </form>
      <WizardPreview b={b} />
    </div>
  );
}
