import type { ButtonHTMLAttributes } from "react";

// The primary action's look, one string for every page (a button, or a link that acts as one):
// the ISV's colour with the text that reads on it, dimmed while it waits.
const sizes = { md: "px-4 py-2", lg: "px-5 py-3" } as const;

/** The primary action's classes, with the place's own (margins, width) after them. */
export function primaryButtonClass(size: keyof typeof sizes = "lg", extra?: string): string {
  return ["rounded-lg bg-primary font-semibold text-on-primary disabled:opacity-60", sizes[size], extra]
    .filter(Boolean)
    .join(" ");
}

/** A primary button (type "button" unless told: a form's submit says so). */
export function PrimaryButton({
  size = "lg",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { size?: keyof typeof sizes }) {
  return <button type={type} {...props} className={primaryButtonClass(size, className)} />;
}
