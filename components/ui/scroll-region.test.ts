import { describe, expect, it } from "vitest";

import { hiddenSides } from "./scroll-region";

describe("hiddenSides", () => {
  it("names the sides a sideways-scrolling box hides", () => {
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 300, clientWidth: 300 })).toBe("none");
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 500, clientWidth: 300 })).toBe("right");
    expect(hiddenSides({ scrollLeft: 100, scrollWidth: 500, clientWidth: 300 })).toBe("both");
    expect(hiddenSides({ scrollLeft: 200, scrollWidth: 500, clientWidth: 300 })).toBe("left");
  });
  it("forgives the pixel browsers round away", () => {
    expect(hiddenSides({ scrollLeft: 0, scrollWidth: 301, clientWidth: 300 })).toBe("none");
    expect(hiddenSides({ scrollLeft: 1, scrollWidth: 301, clientWidth: 300 })).toBe("none");
    expect(hiddenSides({ scrollLeft: 0.5, scrollWidth: 400, clientWidth: 300 })).toBe("right");
  });
});
