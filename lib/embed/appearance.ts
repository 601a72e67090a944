import type { CSSProperties } from "react";

import { textOn } from "../branding/contrast";

// The host page's appearance variables (docs/embedding.md): read by the loader from the element's
// computed style, sent to the frame once at its exchange, checked here (anything else is dropped,
// never put into a style), and applied by the frame's shell on the server, so the first paint
// already wears them.

export const appearanceVariables = {
  "--onb-color-primary": "color_primary",
  "--onb-color-background": "color_background",
  "--onb-color-text": "color_text",
  "--onb-font-family": "font_family",
  "--onb-font-size-base": "font_size_base",
  "--onb-border-radius": "border_radius",
} as const;
export type AppearanceKey = (typeof appearanceVariables)[keyof typeof appearanceVariables];
export type Appearance = Partial<Record<AppearanceKey, string>>;

const hexColor = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbColor = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/;
// Family names and generic families, comma-separated: letters, digits, spaces, quotes, hyphens.
const fontFamily = /^[A-Za-z0-9 ,"'-]{1,200}$/;
const length = /^(?:0|\d{1,2}(?:\.\d{1,3})?(?:px|rem|em))$/;
const fontSize = /^(?:1[2-9]|2[0-4])(?:\.\d{1,2})?px$|^(?:0\.[89]\d*|1(?:\.[0-4]\d*)?)rem$/;

/** A colour as #rrggbb (the loader sends what getComputedStyle says: often rgb()), or null. */
export function normalColor(value: string): string | null {
  const v = value.trim();
  if (hexColor.test(v)) {
    if (v.length === 7) return v.toLowerCase();
    return `#${[...v.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  }
  const m = rgbColor.exec(v);
  if (!m) return null;
  const parts = [m[1], m[2], m[3]].map(Number);
  if (parts.some((n) => n > 255)) return null;
  return `#${parts.map((n) => n.toString(16).padStart(2, "0")).join("")}`;
}

/** The appearance kept from what the host page sent: known keys with valid values only. */
export function readAppearance(input: unknown): Appearance {
  if (!input || typeof input !== "object") return {};
  const out: Appearance = {};
  for (const key of Object.values(appearanceVariables)) {
    const raw = (input as Record<string, unknown>)[key];
    if (typeof raw !== "string" || !raw.trim()) continue;
    const value = raw.trim();
    if (key.startsWith("color_")) {
      const color = normalColor(value);
      if (color) out[key] = color;
    } else if (key === "font_family") {
      if (fontFamily.test(value)) out[key] = value;
    } else if (key === "font_size_base") {
      if (fontSize.test(value)) out[key] = value;
    } else if (length.test(value)) out[key] = value;
  }
  return out;
}

/**
 * The frame's style: the primary colour (with readable text on it, like the ISV's brand), the page's
 * background and text colours, the font, its base size and the corners of every box and button.
 */
export function appearanceStyle(appearance: Appearance): CSSProperties {
  const style: Record<string, string> = {};
  if (appearance.color_primary) {
    // The host's one accent colour stands for the brand's second one too (the wizard's current step
    // chip), so nothing in the frame keeps the ISV's colours beside the host's.
    for (const role of ["primary", "secondary"]) {
      style[`--brand-${role}`] = appearance.color_primary;
      style[`--brand-on-${role}`] = textOn(appearance.color_primary);
    }
  }
  if (appearance.color_background) style.backgroundColor = appearance.color_background;
  if (appearance.color_text) style.color = appearance.color_text;
  if (appearance.font_family) style.fontFamily = appearance.font_family;
  if (appearance.font_size_base) style.fontSize = appearance.font_size_base;
  if (appearance.border_radius) {
    for (const size of ["sm", "md", "lg", "xl"]) style[`--radius-${size}`] = appearance.border_radius;
    style["--radius"] = appearance.border_radius;
  }
  return style as CSSProperties;
}
