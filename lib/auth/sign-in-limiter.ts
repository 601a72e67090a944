import { AppError } from "../errors";
import { limitStore } from "../limits";

// Attempts at what a password guards (API and dashboard alike), each purpose counted apart: 10 per 5
// minutes per e-mail and client address, so nobody elsewhere can lock a user out; and 50 per 5
// minutes per client address across e-mails, so one address cannot spray. Counted in the process's
// limit store (lib/limits.ts: memory, or Redis shared by every instance).
const WINDOW_SECONDS = 5 * 60;
const PER_EMAIL_AND_ADDRESS = 10;
const PER_ADDRESS = 50;
const PER_MEMBER_FACTOR = 20;

/** Set by server.ts on every request to the pages from the socket's address (a client's own value is replaced). */
export const CLIENT_ADDRESS_HEADER = "x-onb-client-address";

/** What the attempts are at: a sign-in, "forgot your password" and the reset link's form, or a second factor (counted per member, in place of the e-mail). */
export type AttemptPurpose = "sign-in" | "password-reset" | "second-factor";

const messages: Record<AttemptPurpose, string> = {
  "sign-in": "Too many sign-in attempts; try again later",
  "password-reset": "Too many password reset attempts; try again later",
  "second-factor": "Too many codes tried; try again later",
};

/**
 * Counts one attempt from `address` (and at `email`, when it is known) and refuses (429
 * `too_many_sign_in_attempts`, with the seconds to wait) once either limit is spent.
 */
export async function checkAttempts(purpose: AttemptPurpose, email: string | null, address: string) {
  const store = limitStore();
  const [pair, fromAddress, member] = await Promise.all([
    email === null
      ? null
      : store
          .limit(`${purpose}-pair`, PER_EMAIL_AND_ADDRESS, WINDOW_SECONDS)
          .hit(`${email.trim().toLowerCase()}|${address}`),
    store.limit(`${purpose}-address`, PER_ADDRESS, WINDOW_SECONDS).hit(address),
    // A second factor is guessed only by someone who has the password: its codes are capped per
    // member whatever the addresses they come from (the member then waits out the window too).
    purpose === "second-factor" && email !== null
      ? store.limit(`${purpose}-member`, PER_MEMBER_FACTOR, WINDOW_SECONDS).hit(email)
      : null,
  ]);
  const wait = Math.max(pair ?? 0, fromAddress ?? 0, member ?? 0);
  if (wait > 0) throw new AppError("too_many_sign_in_attempts", messages[purpose], { retryAfterSeconds: wait });
}

export const checkSignInAttempts = (email: string, address: string) => checkAttempts("sign-in", email, address);
