import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { env } from "@/lib/env";

/**
 * The pages before the ISV's team is signed in (sign-in, forgot, reset): the platform's own brand
 * (its mark and name, a link to its home page; the ISV's brand is for its merchants' pages), and on
 * a sandbox deployment a badge saying so.
 */
export async function SignInShell({ children }: { children: ReactNode }) {
  const t = await getTranslations("dashboard");
  const home = await getTranslations("home");
  return (
    <>
      <header className="border-b border-line bg-card">
        <div className="mx-auto flex max-w-md items-center gap-3 px-4 py-3">
          <Link href="/" className="flex items-center gap-2 font-semibold" data-testid="platform-brand">
            {/* The platform's mark (app/icon.svg), drawn inline: decorative, the name says it. */}
            <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7 shrink-0">
              <rect width="32" height="32" rx="8" fill="#1d4ed8" />
              <path d="M9 17l5 5 9-11" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
            </svg>
            <span>{home("title")}</span>
          </Link>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-md px-4 py-12">
        {env.APP_ENV === "sandbox" ? (
          <p className="mb-3">
            <span
              className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
              data-testid="sandbox-badge"
            >
              {t("sandboxBadge")}
            </span>{" "}
            <span className="text-sm text-muted">{t("sandboxNote")}</span>
          </p>
        ) : null}
        {children}
      </main>
    </>
  );
}
