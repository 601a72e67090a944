"use client";
import { useEffect, useState } from "react";

const options: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "long",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
};

/**
 * A moment in the reader's own time zone: the server writes it in UTC (it does not know the zone,
 * and the page reads right without JavaScript), the browser rewrites it in its own zone once it runs
 * ("November 28, 2026 at 9:41 AM PST"). The `<time>` element keeps the exact instant.
 */
export function LocalTime({ iso, locale }: { iso: string; locale: string }) {
  const [zone, setZone] = useState<string | undefined>("UTC");
  useEffect(() => setZone(undefined), []);
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {new Intl.DateTimeFormat(locale, { ...options, timeZone: zone }).format(new Date(iso))}
    </time>
  );
}
