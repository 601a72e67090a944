import { describe, expect, test } from "vitest";

import { appearanceStyle, normalColor, readAppearance } from "./appearance";

describe("the host page's appearance variables", () => {
  test("colours: #rgb, #rrggbb and rgb()/rgba() as getComputedStyle gives them, as #rrggbb; anything else dropped", () => {
    expect(normalColor("#7C2D12")).toBe("#7c2d12");
    expect(normalColor("#abc")).toBe("#aabbcc");
    expect(normalColor(" rgb(124, 45, 18) ")).toBe("#7c2d12");
    expect(normalColor("rgba(0, 0, 0, 0.5)")).toBe("#000000");
    for (const bad of ["rgb(256, 0, 0)", "red", "#12345", "url(x)", "rgb(1,2)", "#1234567"])
      expect(normalColor(bad)).toBeNull();
  });

  test("only known keys with values that cannot escape a style are kept", () => {
    expect(
      readAppearance({
        color_primary: "rgb(124, 45, 18)",
        color_background: "#fff",
        color_text: "javascript:alert(1)",
        font_family: 'Georgia, "Times New Roman", serif',
        font_size_base: "16px",
        border_radius: "14px",
        unknown: "#000",
      }),
    ).toEqual({
      color_primary: "#7c2d12",
      color_background: "#ffffff",
      font_family: 'Georgia, "Times New Roman", serif',
      font_size_base: "16px",
      border_radius: "14px",
    });
    expect(
      readAppearance({
        font_family: "x; background: url(//evil)",
        font_size_base: "200px",
        border_radius: "1e9px",
        color_primary: 12,
      }),
    ).toEqual({});
    expect(readAppearance({ font_size_base: "0.8rem", border_radius: "0" })).toEqual({
      font_size_base: "0.8rem",
      border_radius: "0",
    });
    expect(readAppearance({ font_size_base: "11px" })).toEqual({});
    expect(readAppearance({ font_size_base: "1.5rem" })).toEqual({});
    expect(readAppearance(null)).toEqual({});
    expect(readAppearance("color_primary")).toEqual({});
  });

  test("the frame's style: the primary colour with readable text on it, the corners of every box", () => {
    expect(appearanceStyle({ color_primary: "#7c2d12", border_radius: "14px", font_family: "Georgia" })).toEqual({
      "--brand-primary": "#7c2d12",
      "--brand-on-primary": "#ffffff",
      "--brand-secondary": "#7c2d12",
      "--brand-on-secondary": "#ffffff",
      "--radius-sm": "14px",
      "--radius-md": "14px",
      "--radius-lg": "14px",
      "--radius-xl": "14px",
      "--radius": "14px",
      fontFamily: "Georgia",
    });
    expect(appearanceStyle({ color_primary: "#fde68a" })["--brand-on-primary" as never]).toBe("#0f172a");
    expect(appearanceStyle({})).toEqual({});
  });
});
