"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { type DefaultValues, type FieldValues, type Path, useForm, type UseFormReturn } from "react-hook-form";
import { type ZodMiniType } from "zod/mini";

import { primaryButtonClass } from "@/components/ui/button";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

import { groupAwareResolver, stripEmpty } from "./form-values";
import { PreviewContext } from "./portal";
import { SaveError, saveSession } from "./session-api";

type Props<T extends FieldValues> = {
  schema: ZodMiniType;
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
export function FormStep<T extends FieldValues>({
  schema,
  defaultValues,
  nextHref,
  toPatch,
  onSaved,
  children,
  extraError,
}: Props<T>) {
  const t = useTranslations("wizard");
  const router = useRouter();
  const summary = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<"network" | "invalid" | null>(null);
  const preview = useContext(PreviewContext);
  const form = useForm<T>({
    resolver: groupAwareResolver<T>(schema),
    defaultValues: defaultValues as DefaultValues<T>,
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
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!failed) return;
    // The first field marked takes the focus; the summary only when no field is (a network error).
    const first = failed === "invalid" ? formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]') : null;
    (first ?? summary.current)?.focus();
  }, [failed, form.formState.submitCount]);

  return (
    <form
      ref={formRef}
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
        <button type="submit" disabled={mutation.isPending} className={primaryButtonClass()}>
          {mutation.isPending ? t("saving") : t("saveContinue")}
        </button>
      </div>
    </form>
  );
}
