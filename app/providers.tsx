"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect, useState } from "react";

export function Providers({ children }: { children: ReactNode }) {
  // A failed save is retried only when trying again can help (the network, a 5xx, a 429); a 4xx is
  // the user's to fix, shown at once.
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          mutations: {
            retry: (count, error) => {
              const status = (error as { status?: unknown }).status;
              return count < 2 && !(typeof status === "number" && status >= 400 && status < 500 && status !== 429);
            },
            retryDelay: (n) => 500 * 2 ** n,
          },
        },
      }),
  );
  // Hydrated: the page's handlers are attached (the journeys wait for this before their first click).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "1";
  }, []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
