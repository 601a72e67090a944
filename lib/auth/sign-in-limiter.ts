import { AppError } from "../errors";
import { limitStore } from "../limits";

// Sign-in attempts (API and dashboard alike): 10 per 5 minutes per e-mail and client address, so
// nobody elsewhere can lock a user out; and 50 per 5 minutes per client address across e-mails, so
// one address cannot spray. Counted in the process's limit store (lib/limits.ts: memory, or Redis
// shared by every instance).
const WINDOW_SECONDS = 5 * 60;
const PER_EMAIL_AND_ADDRESS = 10;
const PER_ADDRESS = 50;

/** Set by server.ts on every request to the pages from the socket's address (a client's own value is replaced). */
export const CLIENT_ADDRESS_HEADER = "x-onb-client-address";

export async function checkSignInAttempts(email: string, address: string) {
  const store = limitStore();
  const [pair, fromAddress] = await Promise.all([
    store.limit("sign-in-pair", PER_EMAIL_AND_ADDRESS, WINDOW_SECONDS).hit(`${email.trim().toLowerCase()}|${address}`),
    store.limit("sign-in-address", PER_ADDRESS, WINDOW_SECONDS).hit(address),
  ]);
  const wait = Math.max(pair ?? 0, fromAddress ?? 0);
  if (wait > 0)
    throw new AppError("too_many_sign_in_attempts", "Too many sign-in attempts; try again later", {
      retryAfterSeconds: wait,
    });
}
