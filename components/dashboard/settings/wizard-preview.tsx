"use client";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useMemo, useRef, useState } from "react";

import { type Locale, toLocale } from "@/lib/i18n/locales";

import type { BrandingDraft } from "./branding-fields";
import { hex } from "./inputs";

const steps = ["business", "owners", "bank", "product", "sales", "device", "review", "agreement"] as const;

/** The real wizard with the branding as typed, at a phone's or a desktop's width, in either language. */
export function WizardPreview({ b }: { b: BrandingDraft }) {
  const t = useTranslations("dashboard");
  const tw = useTranslations("wizard");
  const [step, setStep] = useState<(typeof steps)[number]>("business");
  // The preview starts in the reader's language (a Spanish reader sees the Spanish wizard).
  const readerLocale = useLocale();
  const [locale, setLocale] = useState<Locale>(toLocale(readerLocale));
  const [width, setWidth] = useState<375 | 1024>(375);
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

  return (
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
  );
}
