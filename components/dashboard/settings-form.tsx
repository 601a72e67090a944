"use client";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";

import { type SaveResult, saveSettingsAction } from "@/lib/actions/dashboard";
import { contrastRatio, textOn } from "@/lib/branding/contrast";
import { type Locale, toLocale } from "@/lib/i18n/locales";
import { typedDollarsToCents } from "@/lib/money";
import { type AccountSettings, DEFAULT_DISPUTE_FEE, type MerchantDefaults } from "@/lib/schemas/account";

import { type DomainVerification, DomainVerificationPanel } from "./domain-verification";

const steps = ["business", "owners", "bank", "product", "sales", "device", "review", "agreement"] as const;
const hex = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

function Input({
  id,
  label,
  value,
  onChange,
  type = "text",
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  hint?: string;
}) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A colour as a swatch (the browser's picker) and its hex code, kept in step; the code is what is saved. */
function ColorField({
  id,
  label,
  value,
  onChange,
  hint,
  swatchLabel,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  swatchLabel: string;
}) {
  const valid = hex.test(value);
  return (
    <div className="mb-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          type="color"
          aria-label={swatchLabel}
          value={valid && value.length === 7 ? value : "#000000"}
          onChange={(e) => onChange(e.target.value)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded border border-line bg-card p-0.5"
        />
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          spellCheck={false}
          maxLength={7}
          aria-invalid={valid ? undefined : true}
          aria-describedby={`${id}-hint`}
          className="block w-full rounded-lg border border-line bg-card px-3 py-2 font-mono"
        />
      </div>
      <p id={`${id}-hint`} className={`mt-1 text-sm ${valid ? "text-muted" : "text-danger"}`}>
        {valid ? (hint ?? "#RRGGBB") : `${label}: #RRGGBB, e.g. #1D4ED8`}
      </p>
    </div>
  );
}

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
  const tw = useTranslations("wizard");
  const [b, setB] = useState({
    display_name: defaults.display_name,
    logo: defaults.logo,
    primary_color: defaults.primary_color,
    secondary_color: defaults.secondary_color,
    redirect_url: defaults.redirect_url ?? "",
    custom_domain: defaults.custom_domain ?? "",
    support_email: defaults.support?.email ?? "",
    support_phone: defaults.support?.phone ?? "",
  });
  const [s, setS] = useState({
    notify: settings.notifications.information_requested,
    ttlHours: String(settings.onboarding_link_ttl_seconds / 3600),
    allowSkip: settings.allow_skip_device_selection,
    required: settings.device_selection_required,
    disputeFee: centsAsDollars(settings.dispute_fee ?? DEFAULT_DISPUTE_FEE),
    origins: (settings.embed_allowed_origins ?? []).join("\n"),
  });
  const [step, setStep] = useState<(typeof steps)[number]>("business");
  // The preview starts in the reader's language (a Spanish reader sees the Spanish wizard).
  const readerLocale = useLocale();
  const [locale, setLocale] = useState<Locale>(toLocale(readerLocale));
  const [width, setWidth] = useState<375 | 1024>(375);
  const [result, setResult] = useState<SaveResult | null>(null);
  const [pending, start] = useTransition();
  const set = (k: keyof typeof b) => (v: string) => setB((x) => ({ ...x, [k]: v }));

  // The preview follows the form (debounced): only well-formed colours are sent, like a save.
  const brandingParam = useMemo(() => {
    const edited = {
      display_name: b.display_name || undefined,
      logo: b.logo || undefined,
      primary_color: hex.test(b.primary_color) ? b.primary_color : undefined,
      secondary_color: hex.test(b.secondary_color) ? b.secondary_color : undefined,
      support: b.support_email ? { email: b.support_email } : undefined,
    };
    return btoa(unescape(encodeURIComponent(JSON.stringify(edited))))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  }, [b]);
  const [src, setSrc] = useState("");
  const box = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState<number>(width);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setRoom(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const scale = Math.min(1, room / width);
  useEffect(() => {
    const timer = setTimeout(() => setSrc(`/dashboard-preview?step=${step}&locale=${locale}&b=${brandingParam}`), 250);
    return () => clearTimeout(timer);
  }, [brandingParam, step, locale]);

  // The colour's contrast in words: which text goes on it and whether it reads well.
  const warn = (color: string) => {
    if (!hex.test(color)) return undefined;
    const ratio = contrastRatio(color, textOn(color)).toFixed(1);
    if (Number(ratio) < 4.5) return t("contrastWarning", { ratio });
    return t("contrastOk", { ratio, text: textOn(color).toLowerCase() === "#ffffff" ? t("textWhite") : t("textDark") });
  };
  const [logoError, setLogoError] = useState<string | null>(null);

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
        <fieldset className="mb-4 rounded-lg border border-line p-4">
          <legend className="px-1 font-semibold">{t("branding")}</legend>
          <Input id="display_name" label={t("displayName")} value={b.display_name} onChange={set("display_name")} />
          <Input id="logo" label={t("logo")} value={b.logo.startsWith("data:") ? "" : b.logo} onChange={set("logo")} />
          <div className="mb-3">
            <label htmlFor="logo-upload" className="block text-sm font-medium">
              {t("logoUpload")}
            </label>
            <input
              id="logo-upload"
              type="file"
              accept="image/png,image/jpeg,image/svg+xml,image/webp"
              className="mt-1 block w-full text-sm"
              aria-describedby="logo-upload-error"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                // The file rules in words, not a silent no.
                if (!["image/png", "image/jpeg", "image/svg+xml", "image/webp"].includes(file.type))
                  return setLogoError(t("logoWrongType"));
                if (file.size > 100 * 1024) return setLogoError(t("logoTooBig"));
                setLogoError(null);
                const reader = new FileReader();
                reader.onload = () => set("logo")(String(reader.result));
                reader.readAsDataURL(file);
              }}
            />
            <p id="logo-upload-error" role={logoError ? "alert" : undefined} className="mt-1 text-sm text-danger">
              {logoError ?? ""}
            </p>
            {b.logo ? (
              <div className="mt-2 flex items-center gap-3">
                {/* A data: URL or the ISV's own address, as its pages show it. */}
                <img
                  src={b.logo}
                  alt={t("logoPreview")}
                  className="h-10 max-w-48 rounded border border-line bg-card object-contain p-1"
                />
                <button type="button" className="text-sm underline" onClick={() => set("logo")("")}>
                  {t("logoRemove")}
                </button>
              </div>
            ) : null}
          </div>
          <ColorField
            id="primary_color"
            label={t("primary")}
            swatchLabel={t("swatch", { colour: t("primary") })}
            value={b.primary_color}
            onChange={set("primary_color")}
            hint={warn(b.primary_color)}
          />
          <ColorField
            id="secondary_color"
            label={t("secondary")}
            swatchLabel={t("swatch", { colour: t("secondary") })}
            value={b.secondary_color}
            onChange={set("secondary_color")}
            hint={warn(b.secondary_color)}
          />
          <Input
            id="redirect_url"
            label={t("redirectUrl")}
            value={b.redirect_url}
            onChange={set("redirect_url")}
            type="url"
          />
          <Input id="custom_domain" label={t("customDomain")} value={b.custom_domain} onChange={set("custom_domain")} />
          <DomainVerificationPanel verification={domainVerification} typed={b.custom_domain} />
          <Input
            id="support_email"
            label={t("supportEmail")}
            value={b.support_email}
            onChange={set("support_email")}
            type="email"
          />
          <Input
            id="support_phone"
            label={t("supportPhone")}
            value={b.support_phone}
            onChange={set("support_phone")}
            type="tel"
          />
        </fieldset>
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
              className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2"
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
              className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2 font-mono text-sm"
            />
            <p id="embed_origins-hint" className="mt-1 text-sm text-muted">
              {t("embedOriginsHint")}
            </p>
          </div>
        </fieldset>
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
        <button
          type="submit"
          disabled={pending}
          className="rounded-lg bg-primary px-5 py-3 font-semibold text-on-primary disabled:opacity-60"
        >
          {t("save")}
        </button>
      </form>
      <section aria-labelledby="preview-title" className="min-w-0">
        <h2 id="preview-title" className="text-lg font-semibold">
          {t("preview")}
        </h2>
        <p className="mb-3 text-sm text-muted">{t("previewNote")}</p>
        <div className="mb-3 flex flex-wrap items-center gap-2">
          <label htmlFor="preview-step" className="text-sm">
            {t("previewStep")}
          </label>
          <select
            id="preview-step"
            value={step}
            onChange={(e) => setStep(e.target.value as typeof step)}
            className="rounded border border-line bg-card px-2 py-1"
          >
            {steps.map((x) => (
              <option key={x} value={x}>
                {tw(`steps.${x}`)}
              </option>
            ))}
          </select>
          <label htmlFor="preview-language" className="text-sm">
            {t("previewLanguage")}
          </label>
          <select
            id="preview-language"
            value={locale}
            onChange={(e) => setLocale(e.target.value as "en" | "es")}
            className="rounded border border-line bg-card px-2 py-1"
          >
            <option value="en">English</option>
            <option value="es">Español</option>
          </select>
          <label htmlFor="preview-width" className="text-sm">
            {t("previewWidth")}
          </label>
          <select
            id="preview-width"
            value={width}
            onChange={(e) => setWidth(Number(e.target.value) as 375 | 1024)}
            className="rounded border border-line bg-card px-2 py-1"
          >
            <option value={375}>{t("phone")}</option>
            <option value={1024}>{t("desktop")}</option>
          </select>
        </div>
        {/* The phone or desktop frame at its real width, scaled down to the column: seen whole, never cropped. */}
        <div
          ref={box}
          className="overflow-hidden rounded-lg border border-line"
          style={{ height: Math.ceil(720 * scale) + 2 }}
          data-testid="preview-box"
        >
          {src ? (
            <iframe
              title={t("preview")}
              src={src}
              style={{
                width,
                height: 720,
                maxWidth: "none",
                transform: `scale(${scale})`,
                transformOrigin: "top left",
              }}
              className="block bg-card"
            />
          ) : null}
        </div>
      </section>
    </div>
  );
}
