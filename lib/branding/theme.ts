import type { CSSProperties } from "react";

import { textOn } from "./contrast";

const hex = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/**
 * The ISV's colours as CSS variables, set on the server so that the first paint is branded.
 * Colours are validated when saved and again here: anything but a hex colour falls back.
 */
export function brandStyle(
  branding: { primary_color?: string; secondary_color?: string } | null | undefined,
): CSSProperties {
  const primary = branding?.primary_color && hex.test(branding.primary_color) ? branding.primary_color : "#1d4ed8";
  const secondary =
    branding?.secondary_color && hex.test(branding.secondary_color) ? branding.secondary_color : "#0f172a";
  return {
    "--brand-primary": primary,
    "--brand-on-primary": textOn(primary),
    "--brand-secondary": secondary,
    "--brand-on-secondary": textOn(secondary),
  } as CSSProperties;
}
