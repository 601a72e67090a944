"use client";
import { inputClass } from "@/components/ui/input-class";

// The settings form's own inputs: a labelled text input with its hint, and a colour as swatch and code.

export const hex = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function Input({
  id,
  label,
  value,
  onChange,
  type = "text",
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  hint?: string;
}) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={inputClass()}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A colour as a swatch (the browser's picker) and its hex code, kept in step; the code is what is saved. */
export function ColorField({
  id,
  label,
  value,
  onChange,
  hint,
  swatchLabel,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  swatchLabel: string;
}) {
  const valid = hex.test(value);
  return (
    <div className="mb-3">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <input
          type="color"
          aria-label={swatchLabel}
          value={valid && value.length === 7 ? value : "#000000"}
          onChange={(e) => onChange(e.target.value)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded border border-line bg-card p-0.5"
        />
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          spellCheck={false}
          maxLength={7}
          aria-invalid={valid ? undefined : true}
          aria-describedby={`${id}-hint`}
          className="block w-full rounded-lg border border-line bg-card px-3 py-2 font-mono"
        />
      </div>
      <p id={`${id}-hint`} className={`mt-1 text-sm ${valid ? "text-muted" : "text-danger"}`}>
        {valid ? (hint ?? "#RRGGBB") : `${label}: #RRGGBB, e.g. #1D4ED8`}
      </p>
    </div>
  );
}
