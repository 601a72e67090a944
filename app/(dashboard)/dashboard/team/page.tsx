import { getLocale, getTranslations } from "next-intl/server";

import { InvitationsList } from "@/components/dashboard/team/invitations-list";
import { InviteForm } from "@/components/dashboard/team/invite-form";
import { MembersList } from "@/components/dashboard/team/members-list";
import { RefundLimitForm } from "@/components/dashboard/team/refund-limit-form";
import { memberMay, requireIsvUser } from "@/lib/dashboard/session";
import { openInvitations } from "@/lib/domain/team/invitations";
import { listMembers } from "@/lib/domain/team/members";
import { intlLocale } from "@/lib/i18n/locales";
import { formatCents } from "@/lib/money";

export async function generateMetadata() {
  return { title: (await getTranslations("team"))("title") };
}

// The ISV's team (docs/reference.md section 23): every member and role, the open invitations, the
// support role's refund limit; an owner changes them, the others read.
export default async function TeamPage() {
  const member = await requireIsvUser("team:read");
  const t = await getTranslations("team");
  const locale = await getLocale();
  const manage = memberMay(member, "team:write");
  const [members, invitations] = await Promise.all([
    listMembers(member.db, member.account.id),
    openInvitations(member.db, member.account.id),
  ]);
  const limit = member.account.supportRefundLimit;
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="text-muted">{t("intro")}</p>
        {manage ? null : (
          <p className="mt-2 rounded-lg border border-line bg-card p-3 text-sm" data-testid="team-read-only">
            {t("ownerOnly", { role: t(`roles.${member.role}`) })}
          </p>
        )}
      </div>
      <MembersList members={members} selfId={member.userId} manage={manage} />
      {manage ? <InviteForm /> : null}
      <InvitationsList invitations={invitations} manage={manage} />
      <section aria-labelledby="refund-limit-title">
        <h2 id="refund-limit-title" className="text-lg font-semibold">
          {t("refundLimit.title")}
        </h2>
        <p className="text-sm text-muted">{t("refundLimit.hint")}</p>
        <p className="mt-1" data-testid="refund-limit">
          {t("refundLimit.current", { amount: formatCents(limit, intlLocale(locale)) })}
        </p>
        {manage ? <RefundLimitForm initial={(limit / 100).toFixed(2)} /> : null}
      </section>
    </div>
  );
}
