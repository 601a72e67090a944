"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, useTransition } from "react";

import { FilePicker } from "@/components/ui/file-picker";
import { inputClass } from "@/components/ui/input-class";
import type { HomeDisputeResult } from "@/lib/actions/home";
import { evidenceFileFields, evidenceTextFields } from "@/lib/schemas/disputes";

type TextField = (typeof evidenceTextFields)[number];
type FileField = (typeof evidenceFileFields)[number];
type Evidence = Record<TextField | FileField, string | null>;

const SAVE_AFTER_MS = 700;
const multiline: TextField[] = ["product_description", "uncategorized_text"];

/**
 * The merchant's answer to a dispute: each text saved a moment after the merchant stops typing (and
 * when it leaves the field), each file uploaded as it is picked; "Saved" said politely. Submit and
 * accept each ask for a confirmation first; a submit waits for the saves under way.
 */
export function DisputeEvidenceForm({
  disputeId,
  amount,
  initial,
  fileNames,
  save,
  submit,
  accept,
}: {
  disputeId: string;
  amount: string;
  initial: Evidence;
  fileNames: Record<string, string>;
  save: (input: unknown) => Promise<HomeDisputeResult>;
  submit: () => Promise<HomeDisputeResult>;
  accept: () => Promise<HomeDisputeResult>;
}) {
  const t = useTranslations("disputes");
  const router = useRouter();
  const [values, setValues] = useState<Evidence>(initial);
  const [names, setNames] = useState(fileNames);
  const [state, setState] = useState<"idle" | "saving" | "saved">("idle");
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [uploading, setUploading] = useState<FileField | null>(null);
  const [confirm, setConfirm] = useState<"submit" | "accept" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const timers = useRef(new Map<TextField, ReturnType<typeof setTimeout>>());
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const confirmRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (confirm) confirmRef.current?.focus();
  }, [confirm]);

  // Saves run one after the other (the last typed value wins), each only the field it is about.
  function saveField(field: TextField, value: string) {
    setState("saving");
    saving.current = saving.current.then(async () => {
      const result = await save({ [field]: value });
      if (result.ok) {
        setErrors((e) => ({ ...e, [field]: undefined }));
        setState("saved");
      } else {
        setErrors((e) => ({ ...e, [field]: result.errors[0]?.message ?? "" }));
        setState("idle");
      }
    });
  }
  function typed(field: TextField, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    clearTimeout(timers.current.get(field));
    timers.current.set(
      field,
      setTimeout(() => {
        timers.current.delete(field);
        saveField(field, value);
      }, SAVE_AFTER_MS),
    );
  }
  function left(field: TextField) {
    const timer = timers.current.get(field);
    if (timer === undefined) return;
    clearTimeout(timer);
    timers.current.delete(field);
    saveField(field, values[field] ?? "");
  }
  async function flush() {
    for (const [field, timer] of timers.current) {
      clearTimeout(timer);
      saveField(field, values[field] ?? "");
    }
    timers.current.clear();
    await saving.current;
  }

  async function upload(field: FileField, file: File) {
    setUploading(field);
    setErrors((e) => ({ ...e, [field]: undefined }));
    const form = new FormData();
    form.set("field", field);
    form.set("file", file);
    try {
      const res = await fetch(`/home/disputes/${disputeId}/evidence-file`, { method: "POST", body: form });
      const body = (await res.json().catch(() => null)) as
        { ok: true; file: { id: string; filename: string } } | { ok: false; errors: { message: string }[] } | null;
      if (body?.ok) {
        setValues((v) => ({ ...v, [field]: body.file.id }));
        setNames((n) => ({ ...n, [body.file.id]: body.file.filename }));
        setState("saved");
      } else setErrors((e) => ({ ...e, [field]: body && !body.ok ? (body.errors[0]?.message ?? "") : res.statusText }));
    } finally {
      setUploading(null);
    }
  }

  function run(action: () => Promise<HomeDisputeResult>) {
    start(async () => {
      await flush();
      const result = await action();
      if (result.ok) {
        setConfirm(null);
        router.refresh();
        return;
      }
      setConfirm(null);
      setProblem(
        result.errors[0]?.code === "parameter_missing" ? t("nothingToSubmit") : (result.errors[0]?.message ?? ""),
      );
    });
  }

  const input = inputClass();
  const button = "rounded-lg px-4 py-2.5 font-semibold";
  return (
    <section aria-labelledby="evidence-title" className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="evidence-title" className="text-lg font-semibold">
          {t("formTitle")}
        </h2>
        <p aria-live="polite" className="text-sm text-muted" data-testid="evidence-state">
          {state === "saving" ? t("saving") : state === "saved" ? t("saved") : ""}
        </p>
      </div>
      <p className="text-sm text-muted">{t("formNote")}</p>
      <div className="grid gap-4">
        {evidenceTextFields.map((field) => {
          const id = `evidence-${field}`;
          const error = errors[field];
          const common = {
            id,
            name: field,
            value: values[field] ?? "",
            className: input,
            "aria-invalid": error ? true : undefined,
            "aria-describedby": error ? `${id}-error` : undefined,
            onBlur: () => left(field),
          };
          return (
            <div key={field}>
              <label htmlFor={id} className="font-medium">
                {t(`fields.${field}`)}
              </label>
              {multiline.includes(field) ? (
                <textarea {...common} rows={4} onChange={(e) => typed(field, e.target.value)} />
              ) : (
                <input {...common} type="text" onChange={(e) => typed(field, e.target.value)} />
              )}
              {error ? (
                <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger">
                  {t("saveFailed", { message: error })}
                </p>
              ) : null}
            </div>
          );
        })}
        {evidenceFileFields.map((field) => {
          const id = `evidence-${field}`;
          const error = errors[field];
          const current = values[field];
          return (
            <div key={field}>
              <label htmlFor={id} className="font-medium">
                {t(`fields.${field}`)}
              </label>
              <p id={`${id}-hint`} className="text-sm text-muted">
                {t("fileHint")}
              </p>
              <FilePicker
                id={id}
                buttonText={t("chooseFile")}
                accept="application/pdf,image/jpeg,image/png"
                aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}${current ? ` ${id}-current` : ""}`}
                disabled={uploading !== null}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) void upload(field, file);
                  e.target.value = "";
                }}
              />
              {uploading === field ? (
                <p role="status" className="mt-1 text-sm">
                  {t("uploading")}
                </p>
              ) : null}
              {current ? (
                <p id={`${id}-current`} className="mt-1 text-sm" data-testid={`${id}-current`}>
                  <a href={`/home/files/${current}`} className="break-all underline">
                    {t("attached", { name: names[current] ?? current })}
                  </a>
                </p>
              ) : null}
              {error ? (
                <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger">
                  {t("uploadFailed", { message: error })}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {problem ? (
        <p role="alert" className="font-medium text-danger">
          {problem}
        </p>
      ) : null}
      {confirm ? (
        <div
          ref={confirmRef}
          tabIndex={-1}
          role="alertdialog"
          aria-labelledby="confirm-text"
          className="rounded-lg border-2 border-primary bg-card p-4"
        >
          <p id="confirm-text">{confirm === "submit" ? t("confirmSubmit") : t("confirmAccept", { amount })}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              disabled={pending}
              className={`${button} bg-primary text-on-primary`}
              onClick={() => run(confirm === "submit" ? submit : accept)}
            >
              {confirm === "submit" ? t("confirmSubmitYes") : t("confirmAcceptYes")}
            </button>
            <button type="button" className={`${button} border border-line`} onClick={() => setConfirm(null)}>
              {t("cancel")}
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${button} bg-primary text-on-primary`}
            disabled={uploading !== null}
            onClick={() => {
              setProblem(null);
              setConfirm("submit");
            }}
          >
            {t("submit")}
          </button>
          <button
            type="button"
            className={`${button} border border-line`}
            onClick={() => {
              setProblem(null);
              setConfirm("accept");
            }}
          >
            {t("accept")}
          </button>
        </div>
      )}
    </section>
  );
}
