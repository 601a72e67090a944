import type { InputHTMLAttributes } from "react";

/** The look of a file input's own button where the browser draws it (a form without script). */
export const fileInputClass =
  "mt-1 block w-full text-sm text-muted file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-line file:bg-card file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink";

/**
 * A file input as a button in the page's words ("Choose an image", not the browser's "Choose File"
 * in the browser's language), with what was chosen beside it. The input itself stays in the page,
 * visually hidden: the keyboard reaches it (the button shows its focus) and its label names it.
 */
export function FilePicker({
  buttonText,
  chosen,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "className"> & {
  buttonText: string;
  /** The chosen file's name (or what is attached), said beside the button. */
  chosen?: string | null;
}) {
  return (
    <div className="mt-1 flex flex-wrap items-center gap-3">
      <label
        className={`rounded-lg border border-line bg-card px-3 py-1.5 text-sm font-medium focus-within:outline focus-within:outline-2 focus-within:outline-primary ${input.disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer"}`}
      >
        {buttonText}
        <input {...input} type="file" className="sr-only" />
      </label>
      {chosen ? <span className="text-sm break-all text-muted">{chosen}</span> : null}
    </div>
  );
}
