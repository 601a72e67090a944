"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the page every `everyMs` while something it shows is under way (a check running), for at most `forMs`. */
export function RefreshWhile({
  active,
  everyMs = 1500,
  forMs = 90_000,
}: {
  active: boolean;
  everyMs?: number;
  forMs?: number;
}) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const until = Date.now() + forMs;
    const timer = setInterval(() => (Date.now() > until ? clearInterval(timer) : router.refresh()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, forMs, router]);
  return null;
}
