"use client";
import { useTranslations } from "next-intl";

import type { CustomerActionResult } from "@/lib/actions/home-customers";

import { ConfirmButton } from "./confirm-button";

/** Removes a customer's saved card (asked once): it can never be charged again. */
export function DetachMethodButton({
  id,
  label,
  action,
}: {
  id: string;
  label: string;
  action: (id: string) => Promise<CustomerActionResult>;
}) {
  const t = useTranslations("merchantHome.customers");
  return (
    <ConfirmButton
      id={id}
      text={t("remove")}
      label={t("removeLabel", { card: label })}
      confirm={t("removeConfirm", { card: label })}
      action={action}
    />
  );
}
