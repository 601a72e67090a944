"use client";
import { useEffect, useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";

/**
 * Shows the confirmation for a moment, then goes to the ISV's return URL (the link works at once too).
 * Once only in this tab: Back from the ISV's page lands here and stays (no bounce forward).
 */
export function ReturnRedirect({ to, label, note }: { to: string; label: string; note: string }) {
  const [auto, setAuto] = useState(true);
  useEffect(() => {
    const key = `onboarding-returned:${new URL(to).searchParams.get("merchant_id") ?? ""}`;
    if (window.sessionStorage.getItem(key)) {
      setAuto(false);
      return;
    }
    const timer = setTimeout(() => {
      window.sessionStorage.setItem(key, "1");
      window.location.assign(to);
    }, 2500);
    return () => clearTimeout(timer);
  }, [to]);
  return (
    <div className="mt-6">
      {auto ? <p className="text-sm text-muted">{note}</p> : null}
      <a href={to} className={primaryButtonClass("lg", "mt-3 inline-block")}>
        {label}
      </a>
    </div>
  );
}
