import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { BrandShell } from "@/components/onboarding/brand-shell";
import { homeSignOutAction } from "@/lib/actions/home";
import { currentFrame } from "@/lib/home/current-frame";
import type { MerchantDefaults } from "@/lib/schemas/account";

export type HomeSection =
  "overview" | "payments" | "payouts" | "take" | "customers" | "disputes" | "documents" | "settings";

const sections: { key: HomeSection; href: string }[] = [
  { key: "overview", href: "/home" },
  { key: "payments", href: "/home/payments" },
  { key: "payouts", href: "/home/payouts" },
  { key: "take", href: "/home/take-payment" },
  { key: "customers", href: "/home/customers" },
  { key: "disputes", href: "/home/disputes" },
  { key: "documents", href: "/home/documents" },
  { key: "settings", href: "/home/settings" },
];

/**
 * Every page of the merchant's home: the ISV's brand (BrandShell), the business's name, the
 * sections as a navigation that wraps on a phone (the current one marked for screen readers), and
 * sign-out.
 */
export async function HomeShell({
  branding,
  business,
  section,
  children,
}: {
  branding: Partial<MerchantDefaults>;
  business: string;
  section: HomeSection;
  children: ReactNode;
}) {
  const t = await getTranslations("merchantHome");
  // Inside an embedded component's frame: the section alone (the ISV's page is the navigation), its
  // title said to screen readers only (the host page shows its own heading above the component).
  if ((await currentFrame()).kind === "active")
    return (
      <BrandShell branding={branding}>
        <div className="[&_h1]:sr-only">{children}</div>
      </BrandShell>
    );
  return (
    <BrandShell branding={branding} footerNote={t("title")}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium break-words text-muted" data-testid="home-business">
          {business}
        </p>
        <form action={homeSignOutAction}>
          <button type="submit" className="rounded-lg border border-line bg-card px-3 py-1.5 text-sm font-medium">
            {t("signOut")}
          </button>
        </form>
      </div>
      <nav aria-label={t("sections")} className="mt-3 border-b border-line">
        <ul className="-mb-px flex flex-wrap gap-x-1">
          {sections.map((s) => {
            const current = s.key === section;
            return (
              <li key={s.key}>
                <Link
                  href={s.href}
                  aria-current={current ? "page" : undefined}
                  className={`inline-block border-b-2 px-2 py-2 text-sm font-medium ${
                    current ? "border-primary text-ink" : "border-transparent text-muted hover:text-ink"
                  }`}
                >
                  {t(`nav.${s.key}`)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="mt-5">{children}</div>
    </BrandShell>
  );
}
