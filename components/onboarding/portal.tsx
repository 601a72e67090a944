"use client";
import { useTranslations } from "next-intl";
import { createContext, useContext } from "react";

import { messageOr } from "@/lib/i18n/dynamic";
import type { LooseJson } from "@/lib/loose-json";
import { requestNames } from "@/lib/onboarding/request-names";

export type Requested = { field: string; code: string; message: string };

/**
 * The self-service portal is the wizard reopened with what underwriting asked for: only those
 * fields are shown, each with its reason. Empty outside the portal.
 */
export const PortalContext = createContext<Requested[]>([]);

/** The ISV's live branding preview: the real steps, with nothing saved. */
export const PreviewContext = createContext(false);

const strip = (f: string) => f.replace(/^merchant\./, "");

export function usePortal() {
  const requested = useContext(PortalContext);
  const t = useTranslations();
  const active = requested.length > 0;
  const match = (name: string) =>
    requested.find((r) => name === strip(r.field) || name.startsWith(`${strip(r.field)}.`));
  return {
    active,
    /** Whether a field (or any field under a group path) is asked for. */
    shows: (name: string) =>
      !active ||
      requested.some(
        (r) =>
          name === strip(r.field) || name.startsWith(`${strip(r.field)}.`) || strip(r.field).startsWith(`${name}.`),
      ),
    /** The reason beside a field, translated by its code (an operator's own words stay as written). */
    reason: (name: string) => {
      const r = match(name);
      if (!r) return undefined;
      return messageOr(t, `underwriting.${r.code}`) ?? r.message;
    },
    reasonOf: (r: Requested) => messageOr(t, `underwriting.${r.code}`) ?? r.message,
  };
}

/**
 * A request's reason in the reader's language, by its code, with the names it mentions (a document
 * request says whose document); an operator's own words, or a code without a translation, as written.
 */
export function useRequestText(session: { merchant: unknown }) {
  const t = useTranslations();
  const names = requestNames(session.merchant as LooseJson);
  return (r: Requested) => {
    const key = `underwriting.${r.code}`;
    return messageOr(t, key, names(r.field)) ?? r.message;
  };
}
