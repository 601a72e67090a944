"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

/**
 * A button that does one thing to one object after asking once (a saved card removed, a
 * subscription canceled): its refusal, if any, said beside it in words.
 */
export function ConfirmButton({
  id,
  text,
  label,
  confirm,
  action,
  failed,
}: {
  id: string;
  text: string;
  /** The accessible name: what the button does to what. */
  label: string;
  /** The question asked first; none: no question. */
  confirm?: string;
  action: (id: string) => Promise<{ ok: true } | { ok: false; message: string }>;
  /** The refusal in words: "{message}" in it is replaced by the refusal's own message. */
  failed?: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={pending}
        aria-label={label}
        className="min-h-[44px] rounded-lg border border-slate-500 px-3 py-1 text-sm font-medium disabled:opacity-60"
        onClick={() => {
          if (confirm && !window.confirm(confirm)) return;
          setError(null);
          start(async () => {
            const result = await action(id);
            if (!result.ok) setError(failed ? failed.replace("{message}", result.message) : result.message);
            router.refresh();
          });
        }}
      >
        {text}
      </button>
      {error ? (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      ) : null}
    </span>
  );
}
