"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * Keeps a home page's payments current: asks every 5 seconds (while the tab is visible) for the
 * fingerprint of the latest payments and renders the page again on the server when it differs from
 * the one the page was rendered with. Nothing is shown; a failed poll just tries again.
 */
export function LivePayments({ signature, everyMs = 5000 }: { signature: string; everyMs?: number }) {
  const router = useRouter();
  const shown = useRef(signature);
  useEffect(() => {
    shown.current = signature;
  }, [signature]);
  const { data } = useQuery({
    queryKey: ["home-recent"],
    queryFn: async () => {
      const res = await fetch("/home/recent", { credentials: "same-origin", cache: "no-store" });
      if (!res.ok) throw new Error(`recent payments: ${res.status}`);
      return (await res.json()) as { signature: string };
    },
    refetchInterval: everyMs,
    refetchIntervalInBackground: false,
    retry: false,
  });
  useEffect(() => {
    if (data && data.signature !== shown.current) {
      shown.current = data.signature;
      router.refresh();
    }
  }, [data, router]);
  return null;
}
