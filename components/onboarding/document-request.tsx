"use client";
import { useRouter } from "next/navigation";
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { messageOr } from "@/lib/i18n/dynamic";
import type { LooseJson } from "@/lib/loose-json";
import { documentTarget } from "@/lib/onboarding/document-target";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

import type { Requested } from "./portal";
import { useRequestText } from "./portal";

// A document a verification check asked for, asked in place (docs/reference.md section 14): the
// reason and what is acceptable in the merchant's words, a drop zone, a file button and the camera
// on phones, a preview, the upload's progress, clear errors, and what happens next.

const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = "image/jpeg,image/png,application/pdf";

type Phase =
  | { at: "choosing" }
  | { at: "uploading"; percent: number }
  | { at: "checking" }
  | { at: "verified" }
  | { at: "error"; message: string };

const errorKeys: Record<string, string> = {
  file_too_large: "tooLarge",
  file_type_unsupported: "wrongType",
  file_empty: "unreadable",
  file_unreadable: "unreadable",
  image_too_large: "tooManyPixels",
  file_duplicate: "duplicate",
  document_not_needed: "notNeeded",
};

/** What each kind of document is asked for with, before any was sent (underwriting.<code>). */
const askCodes = {
  identity: "identity_not_verified",
  business: "business_not_verified",
  bank: "bank_account_not_verified",
} as const;

/** Sends the file with the session cookie, reporting progress (fetch cannot report an upload's). */
function send(
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<{ status: number; json: LooseJson | null }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/files");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let json: LooseJson | null = null;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      resolve({ status: xhr.status, json });
    };
    xhr.onerror = () => resolve({ status: 0, json: null });
    xhr.send(form);
  });
}

export function DocumentRequest({
  request,
  session,
  onSession,
}: {
  request: Requested;
  session: OnboardingSessionJson;
  onSession: (next: OnboardingSessionJson) => void;
}) {
  const t = useTranslations("verification");
  const format = useFormatter();
  const router = useRouter();
  const text = useRequestText(session);
  const id = useId();
  const target = documentTarget(request.field);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ at: "choosing" });
  const [dragging, setDragging] = useState(false);
  const status = useRef<HTMLDivElement>(null);
  // The latest callback, without restarting the poll when the parent renders again.
  const latest = useRef(onSession);
  useEffect(() => {
    latest.current = onSession;
  });
  const owner = target.subject ? (session.merchant as LooseJson)[target.subject] : null;
  const name = [owner?.first_name, owner?.last_name].filter(Boolean).join(" ");
  const title =
    target.kind === "identity"
      ? t("titleIdentity", { name })
      : t(target.kind === "bank" ? "titleBank" : "titleBusiness");
  // A document sent and refused: the refusal is an error of its own, and the request stays (what
  // kind of document, about whom) instead of being replaced by the refusal's words.
  const refused = request.code === "document_unreadable";
  const ask = refused ? text({ ...request, code: askCodes[target.kind] }) : text(request);

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  // A file chosen before the page's script ran (a slow connection: the input was there, its change
  // went unheard) is taken as chosen, instead of a chosen file and a button that stays disabled.
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const early = picker.current?.files?.[0];
    if (early) choose(early);
    // Once, at mount: later choices come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function choose(next: File | undefined) {
    if (!next) return;
    if (next.size > MAX_BYTES) return setPhase({ at: "error", message: t("errors.tooLarge") });
    if (next.type && !ACCEPT.split(",").includes(next.type))
      return setPhase({ at: "error", message: t("errors.wrongType") });
    setFile(next);
    setPreview(next.type.startsWith("image/") ? URL.createObjectURL(next) : null);
    setPhase({ at: "choosing" });
  }

  // After the upload: the check runs again; the session says when it is done (or asks again). A
  // document that was all underwriting asked for resubmits the application: the merchant waits here
  // for the decision (seconds in the sandbox), and goes to the completion page once there is one,
  // or once an operator has to look (a failed check), or after a minute.
  useEffect(() => {
    if (phase.at !== "checking") return;
    let stop = false;
    const until = Date.now() + 60_000;
    const poll = async () => {
      while (!stop) {
        await new Promise((r) => setTimeout(r, 1000));
        const res = await fetch("/v1/onboarding/session", { credentials: "same-origin" }).catch(() => null);
        if (!res?.ok || stop) continue;
        const next = (await res.json()) as OnboardingSessionJson;
        const pending = next.requirements.pending_verification.length > 0;
        if (next.lead_onboarding_status !== "IN_PROGRESS") {
          const operator = !pending && next.verification.some((c) => c.status === "failed");
          const decided = next.lead_onboarding_status !== "COMPLETED";
          if (decided || operator || Date.now() > until) return router.push("/onboarding/complete?submitted=1");
          continue;
        }
        if (next.requirements.errors.some((e) => e.field === request.field)) {
          setFile(null);
          setPreview(null);
          setPhase({ at: "choosing" });
          return latest.current(next);
        }
        if (!pending) {
          setPhase({ at: "verified" });
          return latest.current(next);
        }
      }
    };
    void poll();
    return () => {
      stop = true;
    };
  }, [phase.at, request.field, router]);

  useEffect(() => {
    if (phase.at === "checking" || phase.at === "error" || phase.at === "verified") status.current?.focus();
  }, [phase.at]);

  async function upload() {
    if (!file) return;
    const form = new FormData();
    form.set("purpose", target.purpose);
    if (target.subject) form.set("subject", target.subject);
    form.set("file", file, file.name);
    setPhase({ at: "uploading", percent: 0 });
    const res = await send(form, (percent) => setPhase({ at: "uploading", percent }));
    if (res.status === 200) return setPhase({ at: "checking" });
    const code = res.json?.error?.code as string | undefined;
    const key = (code && errorKeys[code]) || "failed";
    setPhase({ at: "error", message: messageOr(t, `errors.${key}`) ?? t("errors.failed") });
  }

  const busy = phase.at === "uploading" || phase.at === "checking";
  return (
    <section aria-labelledby={`${id}-title`} className="mb-6 rounded-lg border border-primary bg-card p-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {title}
      </h2>
      {refused ? (
        <div className="mt-2 rounded-lg border border-danger bg-card p-3 text-danger" data-testid="document-refused">
          <p className="font-semibold">{t("refused")}</p>
          <p>{text(request)}</p>
        </div>
      ) : null}
      <p className="mt-2">{ask}</p>
      <p className="mt-1 text-sm text-muted">{t("accepted")}</p>
      {phase.at === "verified" ? null : (
        <>
          <div
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              if (!busy) choose(e.dataTransfer.files[0]);
            }}
            className={`mt-4 rounded-lg border-2 border-dashed p-4 text-center ${dragging ? "border-primary bg-page" : "border-line"}`}
          >
            <p className="text-sm text-muted">{t("drop")}</p>
            <div className="mt-2 flex flex-wrap justify-center gap-2">
              <label className="cursor-pointer rounded-lg border border-line bg-card px-4 py-2 font-medium focus-within:outline focus-within:outline-2 focus-within:outline-primary">
                {file ? t("change") : t("choose")}
                <input
                  type="file"
                  accept={ACCEPT}
                  className="sr-only"
                  disabled={busy}
                  onChange={(e) => choose(e.target.files?.[0])}
                  ref={picker}
                  data-testid="document-file"
                />
              </label>
              <label className="cursor-pointer rounded-lg border border-line bg-card px-4 py-2 font-medium focus-within:outline focus-within:outline-2 focus-within:outline-primary sm:hidden">
                {t("camera")}
                <input
                  type="file"
                  accept="image/*"
                  capture="environment"
                  className="sr-only"
                  disabled={busy}
                  onChange={(e) => choose(e.target.files?.[0])}
                />
              </label>
            </div>
          </div>
          {file ? (
            <figure className="mt-4 flex items-center gap-3">
              {preview ? (
                <img
                  src={preview}
                  alt={t("preview", { file: file.name })}
                  className="h-20 w-28 rounded border border-line object-cover"
                />
              ) : (
                <span
                  aria-hidden="true"
                  className="grid h-20 w-16 place-items-center rounded border border-line text-sm"
                >
                  PDF
                </span>
              )}
              <figcaption className="min-w-0 text-sm">
                <span className="block truncate font-medium">{file.name}</span>
                <span className="text-muted">
                  {format.number(Math.max(1, Math.round(file.size / 1024)), { style: "unit", unit: "kilobyte" })}
                </span>
              </figcaption>
            </figure>
          ) : null}
          {phase.at === "uploading" ? (
            <div className="mt-4">
              <label htmlFor={`${id}-progress`} className="text-sm">
                {t("uploading", { percent: phase.percent })}
              </label>
              <progress id={`${id}-progress`} max={100} value={phase.percent} className="mt-1 block h-2 w-full" />
            </div>
          ) : null}
          <button type="button" onClick={upload} disabled={!file || busy} className={primaryButtonClass("lg", "mt-4")}>
            {t("send")}
          </button>
        </>
      )}
      <div ref={status} tabIndex={-1} aria-live="polite" className="mt-3 outline-none">
        {phase.at === "checking" ? <p role="status">{t("checking")}</p> : null}
        {phase.at === "verified" ? <p role="status">{t("verified")}</p> : null}
        {phase.at === "error" ? (
          <p role="alert" className="rounded-lg border border-danger bg-card p-3 text-danger">
            {phase.message}
          </p>
        ) : null}
      </div>
    </section>
  );
}
