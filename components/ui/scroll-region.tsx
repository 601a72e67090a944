"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef, useState } from "react";

type More = "none" | "left" | "right" | "both";

/** Which sides of a sideways-scrolling box hide content (a pixel of rounding aside). */
export function hiddenSides(box: { scrollLeft: number; scrollWidth: number; clientWidth: number }): More {
  const left = box.scrollLeft > 1;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  return left && right ? "both" : left ? "left" : right ? "right" : "none";
}

/**
 * A table's box that scrolls sideways when the table is wider than the screen (a phone), and says
 * so: the hidden side fades out (`.scroll-cue` in app/globals.css) and a line under it asks to swipe.
 * Keyboard users reach it (it takes the focus and scrolls with the arrow keys); it is a named region.
 * Nothing shows when the table fits.
 */
export function ScrollRegion({
  labelledBy,
  label,
  className = "",
  children,
}: {
  labelledBy?: string;
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  const t = useTranslations("dashboard");
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState<More>("none");
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => setMore(hiddenSides(el));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);
  return (
    <div className={className}>
      <div
        ref={box}
        className="scroll-cue relative overflow-x-auto"
        data-more={more}
        role="region"
        aria-labelledby={labelledBy}
        aria-label={label}
        tabIndex={0}
      >
        {children}
      </div>
      {more !== "none" ? (
        <p className="mt-1 text-xs text-muted" data-testid="scroll-hint">
          {t("scrollSideways")}
        </p>
      ) : null}
    </div>
  );
}
