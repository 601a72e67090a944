import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { LanguageSwitcher } from "@/components/ui/language-switcher";
import { signOutAction } from "@/lib/actions/sign-in";
import { memberMay, type PermissionSpec, requireIsvUser } from "@/lib/dashboard/session";
import { env } from "@/lib/env";

/** The sections, each with what its page needs: a member sees the tabs its role opens. */
const sections: [string, PermissionSpec][] = [
  ["overview", "account:read"],
  ["merchants", "merchants:read"],
  ["payments", "payments:read"],
  ["customers", "payments:read"],
  ["risk", "merchants:read"],
  ["settings", "account:read"],
  ["developers", "webhooks:read"],
  ["revenue", "reports:read"],
  ["reports", "reports:read"],
  ["audit", "reports:read"],
  ["team", "team:read"],
];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const member = await requireIsvUser("account:read");
  const { account } = member;
  const t = await getTranslations("dashboard");
  return (
    <div className="min-h-screen">
      <header className="border-b border-line bg-card">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-2">
            <strong>{account.name}</strong>
            {env.APP_ENV === "sandbox" ? (
              <span
                className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
                title={t("sandboxNote")}
                data-testid="sandbox-badge"
              >
                {t("sandboxBadge")}
                <span className="sr-only">: {t("sandboxNote")}</span>
              </span>
            ) : null}
          </div>
          <div className="flex items-center gap-3">
            <LanguageSwitcher />
            <form action={signOutAction}>
              <button type="submit" className="rounded border border-line px-3 py-1">
                {t("signOut")}
              </button>
            </form>
          </div>
        </div>
        <DashboardNav
          label={t("nav.label")}
          items={sections
            .filter(([, spec]) => memberMay(member, spec))
            .map(([key]) => ({
              href: key === "overview" ? "/dashboard" : `/dashboard/${key}`,
              label: t(`nav.${key}`),
            }))}
        />
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-6">
        {children}
      </main>
    </div>
  );
}
