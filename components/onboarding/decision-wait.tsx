"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";

/**
 * After a submission, while underwriting decides: the page is rendered again every `everyMs` (the
 * decision replaces this, and the page then returns to the ISV with the real status). Past
 * `timeoutMs` it stops asking and says what happens next, with the way back to the ISV.
 */
export function DecisionWait({
  to,
  label,
  slow,
  everyMs = 1500,
  timeoutMs = 60_000,
}: {
  to: string | null;
  label: string;
  slow: string;
  everyMs?: number;
  timeoutMs?: number;
}) {
  const router = useRouter();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const until = Date.now() + timeoutMs;
    const timer = setInterval(() => {
      if (Date.now() > until) {
        clearInterval(timer);
        setLate(true);
      } else router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs, timeoutMs, router]);
  if (!late)
    return (
      <p className="mt-4 text-sm text-muted" aria-hidden="true">
        …
      </p>
    );
  return (
    <div className="mt-6" data-testid="decision-slow">
      <p>{slow}</p>
      {to ? (
        <a href={to} className={primaryButtonClass("lg", "mt-3 inline-block")}>
          {label}
        </a>
      ) : null}
    </div>
  );
}
