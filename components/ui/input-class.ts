// A text field's look, one string for every form (an input, a select, a textarea): full width under
// its label, tall enough to tap (44 px), the error's colour when it is marked aria-invalid.
const base = "mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2.5 aria-[invalid=true]:border-danger";

/** A field's classes, with the place's own (width on wide screens, a monospace font) after them. */
export function inputClass(extra?: string): string {
  return extra ? `${base} ${extra}` : base;
}
