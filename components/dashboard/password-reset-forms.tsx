"use client";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useActionState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import {
  forgotPasswordAction,
  type ForgotState,
  resetPasswordAction,
  type ResetState,
} from "@/lib/actions/password-reset";

const input = inputClass();
const button = primaryButtonClass();

/** Asks for a reset link; says the same thing whether or not the e-mail has an account. */
export function ForgotPasswordForm() {
  const t = useTranslations("dashboard.reset");
  const [state, action, pending] = useActionState<ForgotState, FormData>(forgotPasswordAction, {
    sent: false,
    email: "",
  });
  if (state.sent)
    return (
      <p role="status" className="mt-6 rounded-lg border border-line bg-card p-4">
        {t("sent", { email: state.email })}
      </p>
    );
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error ? (
        <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          {t(`errors.${state.error}`)}
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
          className={input}
        />
      </div>
      <button type="submit" disabled={pending} className={button}>
        {t("send")}
      </button>
    </form>
  );
}

/** A new password, twice, from a reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const t = useTranslations("dashboard.reset");
  const [state, action, pending] = useActionState<ResetState, FormData>(resetPasswordAction, { error: null });
  return (
    <form action={action} className="mt-6 space-y-4">
      {state.error ? (
        <div role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
          <p>{t(`errors.${state.error}`)}</p>
          {state.error === "invalid" ? (
            <Link href="/sign-in/forgot" className="underline">
              {t("askAgain")}
            </Link>
          ) : null}
        </div>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <div>
        <label htmlFor="password" className="block text-sm font-medium">
          {t("newPassword")}
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          aria-describedby="password-hint"
          className={input}
        />
        <p id="password-hint" className="mt-1 text-sm text-muted">
          {t("hint")}
        </p>
      </div>
      <div>
        <label htmlFor="confirm" className="block text-sm font-medium">
          {t("confirm")}
        </label>
        <input id="confirm" name="confirm" type="password" autoComplete="new-password" required className={input} />
      </div>
      <button type="submit" disabled={pending} className={button}>
        {t("save")}
      </button>
    </form>
  );
}
