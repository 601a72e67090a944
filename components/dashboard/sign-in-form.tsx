"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { signInAction, type SignInState } from "@/lib/actions/sign-in";

export function SignInForm() {
  const t = useTranslations("dashboard");
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, { error: null, email: "" });
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error ? (
        <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          {state.error === "rate_limited" ? t("rateLimited") : t("wrongCredentials")}
        </p>
      ) : null}
      <div>
        <label htmlFor="email" className="block text-sm font-medium">
          {t("email")}
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email}
          className={inputClass()}
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          {t("password")}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass()}
        />
      </div>
      <button type="submit" disabled={pending} className={primaryButtonClass()}>
        {t("signIn")}
      </button>
    </form>
  );
}
