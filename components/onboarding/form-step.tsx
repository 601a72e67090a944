"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { PreviewContext } from "./portal";
import { useForm, type FieldValues, type UseFormReturn, type Path } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { saveSession, SaveError } from "./session-api";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

/** Empty inputs are "not given": '' becomes undefined before validation and before saving. */
export function stripEmpty(value: unknown): unknown {
  if (value === "" || value === null) return undefined;
  if (Array.isArray(value)) return value.map(stripEmpty);
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, stripEmpty(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

/** Form values from the session: nulls become empty inputs. */
export function toFormValues(value: unknown): any {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(toFormValues);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toFormValues(v)]));
  return value;
}

type Props<T extends FieldValues> = {
  schema: z.ZodType;
  defaultValues: T;
  nextHref: string;
  /** The PATCH body for the validated values (default: `{ merchant: values }`). */
  toPatch?: (values: Record<string, unknown>) => Record<string, unknown>;
  onSaved: (session: OnboardingSessionJson) => void;
  children: (form: UseFormReturn<T>) => ReactNode;
  extraError?: string | null;
};

/**
 * One wizard step's form: react-hook-form with the step's zod schema; the save is a react-query
 * mutation (retried on network errors); typed input stays in the form whatever happens.
 */
export function FormStep<T extends FieldValues>({ schema, defaultValues, nextHref, toPatch, onSaved, children, extraError }: Props<T>) {
  const t = useTranslations("wizard");
  const router = useRouter();
  const summary = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<"network" | "invalid" | null>(null);
  const preview = useContext(PreviewContext);
  const form = useForm<T>({
    resolver: zodResolver(z.preprocess((v) => stripEmpty(v) ?? {}, schema) as never) as never,
    defaultValues: defaultValues as never,
    mode: "onTouched",
  });
  const mutation = useMutation({
    mutationFn: (values: Record<string, unknown>) => saveSession(toPatch ? toPatch(values) : { merchant: values }),
    // Retry network failures and server errors; never a 4xx (it will not change).
    retry: (count, error) => count < 2 && !(error instanceof SaveError && error.status < 500),
    onSuccess: (session) => {
      onSaved(session);
      router.push(nextHref);
    },
    onError: (error) => {
      if (error instanceof SaveError && error.status === 400 && error.errors.length) {
        for (const e of error.errors) {
          const name = e.param.replace(/^merchant\./, "").replace(/\[(\d+)\]/g, ".$1") as Path<T>;
          form.setError(name, { type: e.code === "parameter_missing" ? "required" : "server" }, { shouldFocus: true });
        }
        setFailed("invalid");
      } else setFailed("network");
    },
  });
  useEffect(() => {
    if (failed) summary.current?.focus();
  }, [failed]);

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(
        (values) => {
          setFailed(null);
          if (preview) return; // the preview saves nothing
          mutation.mutate((stripEmpty(values) ?? {}) as Record<string, unknown>);
        },
        () => setFailed("invalid"),
      )}
    >
      <div ref={summary} tabIndex={-1} aria-live="assertive" className="outline-none">
        {failed === "network" ? (
          <p role="alert" className="mb-4 rounded-lg border border-danger bg-card p-3 text-danger">
            {t("saveFailed")}
          </p>
        ) : null}
        {failed === "invalid" ? (
          <p role="alert" className="mb-4 rounded-lg border border-danger bg-card p-3 text-danger">
            {t("fixErrors")}
          </p>
        ) : null}
        {extraError ? (
          <p role="alert" className="mb-4 rounded-lg border border-danger bg-card p-3 text-danger">
            {extraError}
          </p>
        ) : null}
      </div>
      {children(form)}
      <div className="mt-6 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={mutation.isPending} className="rounded-lg bg-primary px-5 py-3 font-semibold text-on-primary disabled:opacity-60">
          {mutation.isPending ? t("saving") : t("saveContinue")}
        </button>
      </div>
    </form>
  );
}
