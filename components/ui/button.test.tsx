import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";

import { PrimaryButton, primaryButtonClass } from "./button";

describe("the primary action", () => {
  test("one look in two sizes, with the place's own classes after it", () => {
    expect(primaryButtonClass()).toBe(
      "rounded-lg bg-primary font-semibold text-on-primary disabled:opacity-60 px-5 py-3",
    );
    expect(primaryButtonClass("md", "mt-3")).toBe(
      "rounded-lg bg-primary font-semibold text-on-primary disabled:opacity-60 px-4 py-2 mt-3",
    );
  });
  test("a button that does not submit a form unless told", () => {
    expect(renderToStaticMarkup(<PrimaryButton>Go</PrimaryButton>)).toContain('type="button"');
    expect(renderToStaticMarkup(<PrimaryButton type="submit">Save</PrimaryButton>)).toContain('type="submit"');
  });
});
