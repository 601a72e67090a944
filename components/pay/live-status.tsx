"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Keeps a hosted payment page current: follows the request's status stream (Server-Sent Events)
 * and re-renders the page when it changes (paid at the terminal, declined, canceled, expired), and
 * at `refreshAt` (when a terminal's wait for a card runs out). When the stream is refused (the
 * server's stream caps: 429) the page re-renders every 5 seconds instead.
 */
export function LiveStatus({
  requestId,
  status,
  failure,
  refreshAt,
  locked = false,
}: {
  requestId: string;
  status: string;
  failure: string | null;
  refreshAt?: number;
  /** Locked after too many declines: an unlock re-renders the page with its form. */
  locked?: boolean;
}) {
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource(`/v1/payment_requests/${requestId}/stream`);
    // Compared with what the server rendered, so a change before the stream connected counts too.
    let shown = { status, failure, locked };
    source.addEventListener("payment_request", (event) => {
      const data = JSON.parse((event as MessageEvent<string>).data) as {
        status: string;
        last_failure_reason: string | null;
        locked?: boolean;
      };
      const isLocked = data.locked === true;
      if (data.status !== shown.status || data.last_failure_reason !== shown.failure || isLocked !== shown.locked) {
        shown = { status: data.status, failure: data.last_failure_reason, locked: isLocked };
        router.refresh();
      }
    });
    // Refused (too many streams: 429) or gone for good: the page polls instead, every 5 seconds.
    let polling: ReturnType<typeof setInterval> | undefined;
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED && !polling) polling = setInterval(() => router.refresh(), 5_000);
    });
    const timer =
      refreshAt && refreshAt > Date.now()
        ? setTimeout(() => router.refresh(), refreshAt - Date.now() + 250)
        : undefined;
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
      if (polling) clearInterval(polling);
    };
  }, [requestId, status, failure, refreshAt, locked, router]);
  return null;
}
