import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { brandStyle } from "@/lib/branding/theme";
import { hasOwnLogo, type MerchantDefaults } from "@/lib/schemas/account";

/** Header with the ISV's logo and name, footer with its support contact: the white-label frame. */
export async function BrandShell({
  branding,
  children,
  locale,
  preview,
  footerNote,
}: {
  branding: Partial<MerchantDefaults> | null;
  children: ReactNode;
  locale?: string;
  preview?: boolean;
  /** The footer's first line (the wizard's "Secure application" by default). */
  footerNote?: string;
}) {
  const t = locale ? await getTranslations({ locale, namespace: "wizard" }) : await getTranslations("wizard");
  const name = branding?.display_name ?? t("title");
  const support = branding?.support;
  return (
    <div style={brandStyle(branding)} className="flex min-h-screen flex-col">
      <header className="bg-primary text-on-primary">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            {hasOwnLogo(branding?.logo) ? (
              <img src={branding!.logo} alt="" className="h-8 max-w-[140px] rounded bg-white object-contain p-0.5" />
            ) : (
              // No logo of its own: the ISV's monogram in its colour, not an empty box or our placeholder.
              <span
                aria-hidden="true"
                data-testid="brand-monogram"
                className="grid h-8 w-8 place-items-center rounded-full bg-card text-base font-bold text-primary"
              >
                {name.trim().charAt(0).toUpperCase() || "?"}
              </span>
            )}
            <span className="text-lg font-semibold" data-testid="brand-name">
              {name}
            </span>
          </div>
          {preview ? null : (
            <div className="rounded bg-card px-2 py-1 text-ink">
              <LanguageSwitcher />
            </div>
          )}
        </div>
      </header>
      {preview ? (
        <div className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">{children}</div>
      ) : (
        <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
          {children}
        </main>
      )}
      <footer className="border-t border-line bg-card">
        <div className="mx-auto max-w-3xl px-4 py-4 text-sm text-muted">
          <p>{footerNote ?? t("poweredBy")}</p>
          {support?.email || support?.phone || support?.url ? (
            <p className="mt-1">
              {t("support", { name })}{" "}
              {support.email ? (
                <a className="underline" href={`mailto:${support.email}`}>
                  {support.email}
                </a>
              ) : null}
              {support.phone ? (
                <>
                  {" "}
                  ·{" "}
                  <a className="underline" href={`tel:${support.phone}`}>
                    {support.phone}
                  </a>
                </>
              ) : null}
              {support.url ? (
                <>
                  {" "}
                  ·{" "}
                  <a className="underline" href={support.url}>
                    {support.url}
                  </a>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
      </footer>
    </div>
  );
}
