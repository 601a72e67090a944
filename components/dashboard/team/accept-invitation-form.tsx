"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { acceptInvitationAction, type AcceptState } from "@/lib/actions/team";

const input = inputClass();

/** The invited person's name and password, twice; joining signs them in. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const t = useTranslations("invitation");
  const [state, action, pending] = useActionState<AcceptState, FormData>(acceptInvitationAction, { error: null });
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error ? (
        <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          {t(`errors.${state.error}`)}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <div>
        <label htmlFor="name" className="block text-sm font-medium">
          {t("name")}
        </label>
        <input id="name" name="name" autoComplete="name" maxLength={100} required className={input} />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          {t("password")}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          maxLength={256}
          required
          className={input}
        />
      </div>
      <div>
        <label htmlFor="confirm" className="block text-sm font-medium">
          {t("confirm")}
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required className={input} />
      </div>
      <button type="submit" disabled={pending} className={primaryButtonClass()}>
        {t("submit")}
      </button>
    </form>
  );
}
