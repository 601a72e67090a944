"use client";
import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { endOtherSessionsAction } from "@/lib/actions/team";

export type SessionView = {
  id: string;
  userAgent: string | null;
  clientAddress: string | null;
  createdAt: Date;
  lastSeenAt: Date | null;
  current: boolean;
};

/** A short name for a browser from its User-Agent ("Firefox on Linux"), or the string itself when unknown. */
export function deviceName(agent: string | null): string | null {
  if (!agent) return null;
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Chrome\//.test(agent)
      ? "Chrome"
      : /Firefox\//.test(agent)
        ? "Firefox"
        : /Safari\//.test(agent)
          ? "Safari"
          : null;
  const system = /iPhone|iPad/.test(agent)
    ? "iOS"
    : /Android/.test(agent)
      ? "Android"
      : /Windows/.test(agent)
        ? "Windows"
        : /Mac OS X/.test(agent)
          ? "macOS"
          : /Linux/.test(agent)
            ? "Linux"
            : null;
  return browser && system ? `${browser} · ${system}` : agent.slice(0, 60);
}

/** The member's own open sessions, this one marked; "sign out everywhere else" ends the others. */
export function SessionsList({ sessions }: { sessions: SessionView[] }) {
  const t = useTranslations("sessions");
  const format = useFormatter();
  const router = useRouter();
  const [ended, setEnded] = useState<number | null>(null);
  const [pending, start] = useTransition();
  return (
    <section aria-labelledby="sessions-title" className="mt-8">
      <h2 id="sessions-title" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p className="text-sm text-muted">{t("hint")}</p>
      <ul className="mt-2 space-y-2" data-testid="sessions">
        {sessions.map((s) => (
          <li key={s.id} className="rounded-lg border border-line bg-card p-3 text-sm">
            <p className="font-medium">
              {deviceName(s.userAgent) ?? t("unknownDevice")}
              {s.current ? (
                <span className="ml-2 rounded-full bg-surface px-2 py-0.5 text-xs">{t("current")}</span>
              ) : null}
            </p>
            <p className="text-muted">
              {t("address")}: {s.clientAddress ?? t("unknownAddress")} · {t("since")}:{" "}
              {format.dateTime(s.createdAt, { dateStyle: "medium", timeStyle: "short" })}
              {s.lastSeenAt
                ? ` · ${t("lastSeen")}: ${format.dateTime(s.lastSeenAt, { dateStyle: "medium", timeStyle: "short" })}`
                : ""}
            </p>
          </li>
        ))}
      </ul>
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            setEnded(await endOtherSessionsAction());
            router.refresh();
          })
        }
        className="mt-3 rounded-lg border border-danger px-4 py-2 font-medium text-danger"
      >
        {t("endOthers")}
      </button>
      <p role="status" className="mt-2 text-sm">
        {ended === null ? "" : t("ended", { count: ended })}
      </p>
    </section>
  );
}
