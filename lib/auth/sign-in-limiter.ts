import { AppError } from "../errors";

// Sign-in attempts: 10 per 5 minutes per e-mail and client address (API and dashboard alike).
const WINDOW_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 10;
const attempts = new Map<string, number[]>();

export function checkSignInAttempts(email: string, address: string) {
  const key = `${email.trim().toLowerCase()}|${address}`;
  const now = Date.now();
  const recent = (attempts.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (recent.length >= MAX_ATTEMPTS) {
    const retryAfter = Math.ceil((recent[0]! + WINDOW_MS - now) / 1000);
    throw new AppError("too_many_sign_in_attempts", "Too many sign-in attempts; try again later", { retryAfterSeconds: retryAfter });
  }
  recent.push(now);
  attempts.set(key, recent);
  if (attempts.size > 10_000) attempts.clear();
}
