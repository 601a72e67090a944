"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type ReactNode, useContext, useEffect, useRef, useState } from "react";
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  useForm,
  type UseFormReturn,
} from "react-hook-form";
import { pipe, transform, type ZodMiniType } from "zod/mini";

import { primaryButtonClass } from "@/components/ui/button";
import { displayPhone } from "@/lib/i18n/display";
import type { Loose, LooseJson } from "@/lib/loose-json";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

import { PreviewContext } from "./portal";
import { SaveError, saveSession } from "./session-api";

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

/**
 * Form values from the session: nulls become empty inputs; a US phone number stored in E.164
 * (+14155550123) is shown the way the field's hint asks for it, (415) 555-0123.
 */
export function toFormValues(value: unknown): Loose {
  if (value === null || value === undefined) return "";
  if (typeof value === "string" && /^\+1\d{10}$/.test(value)) return displayPhone(value);
  if (Array.isArray(value)) return value.map(toFormValues);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toFormValues(v)]));
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === "object" && !Array.isArray(v);
const getAt = (value: unknown, path: string[]) =>
  path.reduce<unknown>(
    (acc, key) => (isPlainObject(acc) || Array.isArray(acc) ? (acc as LooseJson)[key] : undefined),
    value,
  );
function setAt(value: Record<string, unknown>, path: string[], leaf: unknown) {
  let node: LooseJson = value as LooseJson;
  path.slice(0, -1).forEach((key) => {
    if (!isPlainObject(node[key]) && !Array.isArray(node[key])) node[key] = {};
    node = node[key];
  });
  const last = path.at(-1);
  if (last !== undefined) node[last] = leaf;
}
/** The paths of the errors react-hook-form would show (a node with a `type` is one error). */
function errorPaths(errors: unknown, path: string[] = []): string[][] {
  if (!isPlainObject(errors)) return [];
  if (typeof errors.type === "string") return [path];
  return Object.entries(errors).flatMap(([key, child]) =>
    key === "root" || key === "ref" ? [] : errorPaths(child, [...path, key]),
  );
}

/**
 * The step's zod schema on the values with empty inputs removed, with one difference: a group the
 * form shows field by field (an address, the main contact, an owner) that is left entirely empty is
 * validated as an empty group, so each of its required fields is marked, not the group as a whole
 * (which has no input to mark or to focus).
 */
export function groupAwareResolver<T extends FieldValues = LooseJson>(schema: ZodMiniType): Resolver<T> {
  return async (values, context, options) => {
    const stripped = (stripEmpty(values) ?? {}) as Record<string, unknown>;
    const filled = structuredClone(stripped);
    for (let round = 0; ; round++) {
      // The form's values are T; zod sees the copy with the empty groups filled.
      const resolve = zodResolver(
        pipe(
          transform((_: FieldValues): unknown => structuredClone(filled)),
          schema,
        ),
      ) as Resolver<T>;
      const result = await resolve(values, context, options);
      const paths = errorPaths(result.errors);
      const groups = paths.filter(
        (p) => p.length > 0 && getAt(filled, p) === undefined && isPlainObject(getAt(values, p)),
      );
      if (groups.length === 0 || round === 3) {
        // Nothing given is "required", whatever zod calls it (an empty choice is an invalid enum value to zod).
        for (const p of paths)
          if (getAt(filled, p) === undefined) (getAt(result.errors, p) as { type: string }).type = "required";
        return result;
      }
      for (const p of groups) setAt(filled, p, {});
    }
  };
}

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
