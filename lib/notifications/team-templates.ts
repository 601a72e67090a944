import type { Role } from "../auth/permissions";
import type { Locale } from "../i18n/locales";
import { translator } from "../i18n/translate";
import { type Brand, html } from "./templates";

/** To a person invited to an ISV's team (docs/reference.md section 23): the single-use link, 7 days. */
export function memberInvitation(input: {
  brand: Brand;
  locale: Locale;
  isv: string;
  inviter: string;
  role: Role;
  url: string;
}) {
  const t = translator(input.locale, "emails.memberInvitation");
  const intro = t("intro", {
    isv: input.isv,
    inviter: input.inviter,
    role: t(`roles.${input.role}`),
    platform: input.brand.display_name,
  });
  return {
    senderName: input.brand.display_name,
    subject: t("subject", { isv: input.isv }),
    text: [intro, "", `${t("action")}: ${input.url}`, "", t("ignore")].join("\n"),
    html: html(input.brand, input.locale, intro, [], { href: input.url, label: t("action") }, t("ignore")),
  };
}
