"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { mutations: { retry: 2, retryDelay: (n) => 500 * 2 ** n } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
