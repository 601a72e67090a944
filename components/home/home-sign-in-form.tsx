"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { homeSignInAction, type HomeSignInState } from "@/lib/actions/home";

/** The home's sign-in: an e-mail address, then the same answer whether or not it is known. */
export function HomeSignInForm() {
  const t = useTranslations("merchantHome");
  const [state, action, pending] = useActionState<HomeSignInState, FormData>(homeSignInAction, {
    state: "idle",
    email: "",
  });
  return (
    <form action={action} className="mt-6 space-y-4" noValidate>
      <div aria-live="polite">
        {state.state === "sent" ? (
          <p role="status" className="rounded-lg border border-line bg-card p-3">
            {t("sent")}
          </p>
        ) : null}
        {state.state === "invalid" || state.state === "rate_limited" ? (
          <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
            {state.state === "invalid" ? t("invalidEmail") : t("rateLimited")}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="home-email" className="block text-sm font-medium">
          {t("email")}
        </label>
        <input
          id="home-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state.email}
          aria-invalid={state.state === "invalid" || undefined}
          className={inputClass()}
        />
      </div>
      <button type="submit" disabled={pending} className={primaryButtonClass()}>
        {t("send")}
      </button>
    </form>
  );
}
