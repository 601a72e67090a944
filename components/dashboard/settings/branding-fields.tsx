"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { FilePicker } from "@/components/ui/file-picker";
import { contrastRatio, textOn } from "@/lib/branding/contrast";

import { type DomainVerification, DomainVerificationPanel } from "../domain-verification";
import { ColorField, hex, Input } from "./inputs";

/** The branding as typed (strings; empty is "none"), what the preview shows before a save. */
export type BrandingDraft = {
  display_name: string;
  logo: string;
  primary_color: string;
  secondary_color: string;
  redirect_url: string;
  custom_domain: string;
  support_email: string;
  support_phone: string;
};

/** The branding fieldset: name, logo (an address or a small upload), colours with their contrast, addresses. */
export function BrandingFields({
  b,
  set,
  domainVerification,
}: {
  b: BrandingDraft;
  set: (k: keyof BrandingDraft) => (v: string) => void;
  domainVerification: DomainVerification;
}) {
  const t = useTranslations("dashboard");
  // The colour's contrast in words: which text goes on it and whether it reads well.
  const warn = (color: string) => {
    if (!hex.test(color)) return undefined;
    const ratio = contrastRatio(color, textOn(color)).toFixed(1);
    if (Number(ratio) < 4.5) return t("contrastWarning", { ratio });
    return t("contrastOk", { ratio, text: textOn(color).toLowerCase() === "#ffffff" ? t("textWhite") : t("textDark") });
  };
  const [logoError, setLogoError] = useState<string | null>(null);
  const [logoName, setLogoName] = useState<string | null>(null);
  return (
    <fieldset className="mb-4 rounded-lg border border-line p-4">
      <legend className="px-1 font-semibold">{t("branding")}</legend>
      <Input id="display_name" label={t("displayName")} value={b.display_name} onChange={set("display_name")} />
      <Input id="logo" label={t("logo")} value={b.logo.startsWith("data:") ? "" : b.logo} onChange={set("logo")} />
      <div className="mb-3">
        <label htmlFor="logo-upload" className="block text-sm font-medium">
          {t("logoUpload")}
        </label>
        <FilePicker
          id="logo-upload"
          buttonText={t("logoChoose")}
          chosen={logoName}
          accept="image/png,image/jpeg,image/svg+xml,image/webp"
          aria-describedby="logo-upload-error"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            // The file rules in words, not a silent no.
            if (!["image/png", "image/jpeg", "image/svg+xml", "image/webp"].includes(file.type))
              return setLogoError(t("logoWrongType"));
            if (file.size > 100 * 1024) return setLogoError(t("logoTooBig"));
            setLogoError(null);
            setLogoName(file.name);
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
            <button
              type="button"
              className="text-sm underline"
              onClick={() => {
                set("logo")("");
                setLogoName(null);
              }}
            >
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
  );
}
