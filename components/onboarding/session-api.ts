"use client";
import type { OnboardingSessionJson } from "@/lib/serializers/onboarding-session";

export type ServerFieldError = { param: string; code: string; message: string };
export class SaveError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ServerFieldError[],
  ) {
    super(`save failed (${status})`);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new SaveError(res.status, json?.error?.errors ?? []);
  return json as T;
}

export const saveSession = (patch: Record<string, unknown>) =>
  call<OnboardingSessionJson>("PATCH", "/v1/onboarding/session", patch);
export const signAgreement = (name: string) =>
  call<{ name: string; signed_at: string }>("POST", "/v1/onboarding/session/agreement", { name });
export const submitApplication = () =>
  call<{ lead_onboarding_status: string; redirect_url: string }>("POST", "/v1/onboarding/session/submit");
