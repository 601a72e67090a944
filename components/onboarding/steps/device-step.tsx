"use client";
import { useLocale, useTranslations } from "next-intl";

import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";
import { DEVICE_SKIP as SKIP, deviceSchema as schema } from "@/lib/onboarding/step-schemas";

import { FormStep } from "../form-step";
import type { StepProps } from "../step-props";

// Device: a terminal from the ISV's catalog, or (where allowed) the merchant's own compatible one.
export function DeviceStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const locale = intlLocale(useLocale());
  const priced = session.device_options.some((d) => d.price !== undefined);
  // The chosen card in the brand's colour (the radio inside says it to assistive technology).
  const card =
    "mb-3 flex items-start gap-3 rounded-lg border border-line bg-card p-4 has-[:checked]:border-primary has-[:checked]:ring-2 has-[:checked]:ring-primary";
  const current =
    session.device_selection === "skipped"
      ? SKIP
      : (session.device?.catalog_id ?? (session.device?.imei ? "__imei" : ""));
  return (
    <FormStep
      schema={schema}
      defaultValues={{ choice: current, confirm: session.device_selection === "skipped" }}
      nextHref={nextHref}
      onSaved={onSaved}
      toPatch={(v) =>
        v.choice === SKIP
          ? { device_selection: "skipped" }
          : v.choice === "__imei"
            ? {}
            : { device: { catalog_id: v.choice } }
      }
    >
      {(form) => {
        const choice = form.watch("choice");
        const error = form.formState.errors.choice;
        return (
          <fieldset aria-describedby={error ? "device-error" : undefined}>
            <legend className="mb-3 font-medium">{t("fields.device.choose")}</legend>
            {priced ? (
              <p className="mb-3 text-sm text-muted">
                {t("fields.device.priceNote", { isv: session.branding.display_name })}
              </p>
            ) : null}
            {session.device?.imei ? (
              <label className={card}>
                <input type="radio" value="__imei" className="mt-1 h-5 w-5 shrink-0" {...form.register("choice")} />
                <span>
                  {t("fields.device.imei")}: {session.device.imei}
                </span>
              </label>
            ) : null}
            {session.device_options.map((d) => (
              <label key={d.id} className={card}>
                <input type="radio" value={d.id} className="mt-1 h-5 w-5 shrink-0" {...form.register("choice")} />
                <span>
                  <span className="block font-semibold">{d.name}</span>
                  {d.description ? (
                    <span className="block text-sm text-muted">
                      {(locale.startsWith("es") && d.description_es) || d.description}
                    </span>
                  ) : null}
                  {d.price !== undefined ? (
                    <span className="mt-1 block text-sm font-medium">
                      {t("fields.device.price", { price: formatCents(d.price, locale) })}
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
            {session.allow_skip_device_selection ? (
              <label className={card}>
                <input type="radio" value={SKIP} className="mt-1 h-5 w-5 shrink-0" {...form.register("choice")} />
                <span className="font-semibold">{t("fields.device.skip")}</span>
              </label>
            ) : null}
            {choice === SKIP ? (
              <div className="mb-3 flex items-center gap-2">
                <input
                  id="device-confirm"
                  type="checkbox"
                  className="h-5 w-5"
                  aria-invalid={form.formState.errors.confirm ? true : undefined}
                  {...form.register("confirm")}
                />
                <label htmlFor="device-confirm">{t("fields.device.skipConfirm")}</label>
              </div>
            ) : null}
            {error || form.formState.errors.confirm ? (
              <p id="device-error" role="alert" className="text-sm font-medium text-danger">
                {error ? t("errors.required", { field: t("fields.device.choose") }) : t("fields.device.skipConfirm")}
              </p>
            ) : null}
          </fieldset>
        );
      }}
    </FormStep>
  );
}
