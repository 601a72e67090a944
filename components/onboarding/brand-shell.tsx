import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { EmbedBridge } from "@/components/embed/embed-bridge";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { brandStyle } from "@/lib/branding/theme";
import { appearanceStyle } from "@/lib/embed/appearance";
import { currentFrame } from "@/lib/home/current-frame";
import { hasOwnLogo, type MerchantDefaults } from "@/lib/schemas/account";

/** Header with the ISV's logo and name, footer with its support contact: the white-label frame. */
export async function BrandShell({
  branding,
  children,
  locale,
  preview,
  footerNote,
  lead,
  narrow,
}: {
  branding: Partial<MerchantDefaults> | null;
  children: ReactNode;
  locale?: string;
  preview?: boolean;
  /** The footer's first line (the wizard's "Secure application" by default). */
  footerNote?: string;
  /**
   * The business the page is about, leading the header (the pay pages: a customer paying a café knows
   * the café, not its software vendor). The ISV's colours stay; its name moves to a small "payments
   * by" line in the footer.
   */
  lead?: string;
  /** A narrow page (the pay pages): the header and footer align with its content. */
  narrow?: boolean;
}) {
  // Inside an ISV's page (an embedded component's frame): no header, footer or language switch (the
  // host page has its own), the host's appearance over the ISV's colours, and the bridge to the host.
  const frame = preview ? null : await currentFrame();
  if (frame?.kind === "active")
    return (
      <div
        data-embed-root
        style={{ ...brandStyle(branding), ...appearanceStyle(frame.session.appearance) }}
        className="px-1 py-2"
      >
        <main id="main">{children}</main>
        <EmbedBridge origin={frame.session.origin} />
      </div>
    );
  const t = locale ? await getTranslations({ locale, namespace: "wizard" }) : await getTranslations("wizard");
  const name = branding?.display_name ?? t("title");
  const shown = lead || name;
  const support = branding?.support;
  const width = narrow ? "max-w-xl" : "max-w-3xl";
  return (
    <div style={brandStyle(branding)} className="flex min-h-screen flex-col">
      <header className="bg-primary text-on-primary">
        <div className={`mx-auto flex ${width} flex-wrap items-center justify-between gap-3 px-4 py-3`}>
          <div className="flex items-center gap-3">
            {!lead && branding && hasOwnLogo(branding.logo) ? (
              <img src={branding.logo} alt="" className="h-8 max-w-[140px] rounded bg-white object-contain p-0.5" />
            ) : (
              // No logo of its own: the ISV's monogram in its colour, not an empty box or our placeholder.
              <span
                aria-hidden="true"
                data-testid="brand-monogram"
                className="grid h-8 w-8 place-items-center rounded-full bg-card text-base font-bold text-primary"
              >
                {shown.trim().charAt(0).toUpperCase() || "?"}
              </span>
            )}
            <span className="text-lg font-semibold break-words" data-testid="brand-name">
              {shown}
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
        <div className={`mx-auto w-full ${width} flex-1 px-4 py-6`}>{children}</div>
      ) : (
        <main id="main" className={`mx-auto w-full ${width} flex-1 px-4 py-6`}>
          {children}
        </main>
      )}
      <footer className="border-t border-line bg-card">
        <div className={`mx-auto ${width} px-4 py-4 text-sm text-muted`}>
          <p>{footerNote ?? t("poweredBy")}</p>
          {lead ? <p className="mt-1">{t("paymentsBy", { name })}</p> : null}
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
