"use client";
import { useEffect } from "react";

/** Shows the confirmation for a moment, then goes to the ISV's return URL (the link works at once too). */
export function ReturnRedirect({ to, label, note }: { to: string; label: string; note: string }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(to), 2500);
    return () => clearTimeout(timer);
  }, [to]);
  return (
    <div className="mt-6">
      <p className="text-sm text-muted">{note}</p>
      <a href={to} className="mt-3 inline-block rounded-lg bg-primary px-5 py-3 font-semibold text-on-primary">
        {label}
      </a>
    </div>
  );
}
