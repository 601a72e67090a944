import { AppError } from "../errors";

// Sign-in attempts (API and dashboard alike): 10 per 5 minutes per e-mail and client address, so
// nobody elsewhere can lock a user out; and 50 per 5 minutes per client address across e-mails, so
// one address cannot spray. Expired counters are swept; past MAX_KEYS the oldest go first (never
// all at once, which would forget the attackers' counters with the rest).
const WINDOW_MS = 5 * 60 * 1000;
const PER_EMAIL_AND_ADDRESS = 10;
const PER_ADDRESS = 50;
const MAX_KEYS = 50_000;
const attempts = new Map<string, number[]>();
let lastSweep = Date.now();

function hit(key: string, limit: number, now: number) {
  const recent = (attempts.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (recent.length >= limit) {
    const retryAfter = Math.ceil((recent[0]! + WINDOW_MS - now) / 1000);
    throw new AppError("too_many_sign_in_attempts", "Too many sign-in attempts; try again later", { retryAfterSeconds: retryAfter });
  }
  return recent;
}

export function checkSignInAttempts(email: string, address: string) {
  const now = Date.now();
  if (now - lastSweep > WINDOW_MS) {
    for (const [key, times] of attempts) if (now - times[times.length - 1]! >= WINDOW_MS) attempts.delete(key);
    lastSweep = now;
  }
  const pairKey = `${email.trim().toLowerCase()}|${address}`;
  const addressKey = `|${address}`;
  const pair = hit(pairKey, PER_EMAIL_AND_ADDRESS, now);
  const fromAddress = hit(addressKey, PER_ADDRESS, now);
  for (const [key, times] of [
    [pairKey, pair],
    [addressKey, fromAddress],
  ] as const) {
    times.push(now);
    attempts.delete(key); // re-inserted last: the map's order is the order of last use
    attempts.set(key, times);
  }
  while (attempts.size > MAX_KEYS) attempts.delete(attempts.keys().next().value!);
}
