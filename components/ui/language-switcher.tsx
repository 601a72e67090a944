"use client";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";

/** Remembers the choice in a cookie; the server renders in that language from then on. */
export function LanguageSwitcher() {
  const locale = useLocale();
  const t = useTranslations("wizard");
  const router = useRouter();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span>{t("language")}</span>
      <select
        className="rounded border border-line bg-card px-2 py-1 text-ink"
        value={locale}
        onChange={(e) => {
          document.cookie = `locale=${e.target.value}; path=/; max-age=31536000; samesite=lax`;
          router.refresh();
        }}
      >
        <option value="en">English</option>
        <option value="es">Español</option>
      </select>
    </label>
  );
}
