import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { isRole, permission, type Resource, rolesFor } from "@/lib/auth/permissions";
import { requireIsvUser } from "@/lib/dashboard/session";

export async function generateMetadata() {
  return { title: (await getTranslations("dashboard"))("forbiddenTitle") };
}

const specPattern = /^([a-z_]+):(read|write)$/;

// Where a page the member's role may not open sends it: which roles may, and the way back.
export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ needs?: string }> }) {
  const member = await requireIsvUser("account:read");
  const t = await getTranslations("dashboard");
  const team = await getTranslations("team");
  const needs = specPattern.exec((await searchParams).needs ?? "");
  const may = needs ? rolesFor(permission(`${needs[1] as Resource}:${needs[2] as "read" | "write"}`)) : [];
  return (
    <div className="max-w-xl space-y-3">
      <h1 className="text-2xl font-semibold">{t("forbiddenTitle")}</h1>
      <p>
        {t("forbiddenBody", {
          role: team(`roles.${member.role}`),
          roles: may
            .filter(isRole)
            .map((r) => team(`roles.${r}`))
            .join(", "),
        })}
      </p>
      <Link href="/dashboard" className="inline-block rounded-lg border border-line px-4 py-2">
        {t("forbiddenBack")}
      </Link>
    </div>
  );
}
