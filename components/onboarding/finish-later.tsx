"use client";
import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

// "Save and finish later" (docs/reference.md section 12): the answers are saved at each step; this
// e-mails the merchant a new link to come back with (POST /v1/onboarding/session/resume_link). The
// new link replaces the one in hand, so once sent the page says so and asks for nothing more.

type State = { at: "closed" } | { at: "open"; error?: string } | { at: "sending" } | { at: "sent"; to: string };

export function FinishLater({ session }: { session: OnboardingSessionJson }) {
  const t = useTranslations("wizard.finishLater");
  const locale = useLocale();
  const id = useId();
  const contact = (session.merchant as { main_contact_person?: { email?: string | null } }).main_contact_person?.email;
  const [email, setEmail] = useState(contact ?? "");
  const [state, setState] = useState<State>({ at: "closed" });

  async function send(e: React.FormEvent) {
    e.preventDefault();
    setState({ at: "sending" });
    const res = await fetch("/v1/onboarding/session/resume_link", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: email.trim(), locale }),
    }).catch(() => null);
    if (res?.ok) return setState({ at: "sent", to: email.trim() });
    const code = ((await res?.json().catch(() => null)) as { error?: { code?: string; param?: string } } | null)?.error;
    setState({
      at: "open",
      error: code?.param === "email" ? t("badEmail") : code?.code === "rate_limited" ? t("tooMany") : t("failed"),
    });
  }

  if (state.at === "sent")
    return (
      <div role="status" className="mb-4 rounded-lg border border-primary bg-card p-3" data-testid="finish-later-sent">
        <p className="font-semibold">{t("sentTitle")}</p>
        <p>{t("sentBody", { email: state.to })}</p>
      </div>
    );
  if (state.at === "closed")
    return (
      <p className="mb-4 text-sm">
        <button type="button" className="font-medium text-ink underline" onClick={() => setState({ at: "open" })}>
          {t("open")}
        </button>
      </p>
    );
  const error = state.at === "open" ? state.error : undefined;
  return (
    <form onSubmit={send} className="mb-4 rounded-lg border border-line bg-card p-3" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="font-semibold">
        {t("title")}
      </p>
      <p className="text-sm text-muted">{t("body")}</p>
      <label htmlFor={`${id}-email`} className="mt-2 block text-sm font-medium">
        {t("email")}
      </label>
      <input
        id={`${id}-email`}
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass("text-base")}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="submit" disabled={state.at === "sending"} className={primaryButtonClass("md")}>
          {t("send")}
        </button>
        <button
          type="button"
          className="rounded-lg border border-line px-4 py-2"
          onClick={() => setState({ at: "closed" })}
        >
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}

/** The first step's note: what the merchant will need, and about how long it takes. */
export function BeforeYouStart() {
  const t = useTranslations("wizard.beforeYouStart");
  return (
    <div className="mb-4 rounded-lg border border-line bg-card p-3" role="note" data-testid="before-you-start">
      <p className="font-semibold">{t("title")}</p>
      <ul className="mt-1 list-disc pl-5 text-sm">
        <li>{t("business")}</li>
        <li>{t("owners")}</li>
        <li>{t("bank")}</li>
      </ul>
      <p className="mt-1 text-sm text-muted">{t("time")}</p>
    </div>
  );
}
