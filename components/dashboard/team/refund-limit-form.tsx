"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { refundLimitAction } from "@/lib/actions/team";

import { ChangeMessage, useTeamChange } from "./use-team-change";

/** The owner's limit on a support member's refunds (dollars as typed: "500", "1,250.00"). */
export function RefundLimitForm({ initial }: { initial: string }) {
  const t = useTranslations("team");
  const router = useRouter();
  const [value, setValue] = useState(initial);
  const { message, pending, run } = useTeamChange();
  return (
    <form
      className="mt-2 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        run(
          () => refundLimitAction(value),
          () => {
            router.refresh();
            return t("saved");
          },
        );
      }}
    >
      <div>
        <label htmlFor="refund-limit" className="block text-sm font-medium">
          {t("refundLimit.label")}
        </label>
        <input
          id="refund-limit"
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={message && !message.ok ? true : undefined}
          aria-describedby="refund-limit-status"
          className={inputClass("w-40")}
        />
      </div>
      <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
        {t("refundLimit.submit")}
      </button>
      <div className="basis-full">
        <ChangeMessage id="refund-limit-status" message={message} />
      </div>
    </form>
  );
}
