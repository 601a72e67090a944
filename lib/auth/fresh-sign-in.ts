import { clock } from "../clock";
import { AppError } from "../errors";

// Sensitive changes (docs/reference.md section 23: the ISV's payout bank account, the team, API
// keys, webhook URLs) need a sign-in in the last 15 minutes, whatever the session's age.

/** How recent a sign-in must be for a sensitive change. */
export const FRESH_SIGN_IN_SECONDS = 15 * 60;

/**
 * Refuses (403 `reauthentication_required`) a change from a sign-in older than 15 minutes;
 * `signedInAt` is the sign-in token's `iat` (Unix seconds). `what` names the change in the message.
 */
export function assertFreshSignIn(signedInAt: number | null, what = "This change", param?: string, now = clock.now()) {
  const age = signedInAt === null ? Infinity : now.getTime() / 1000 - signedInAt;
  if (!(age <= FRESH_SIGN_IN_SECONDS))
    throw new AppError(
      "reauthentication_required",
      `${what} needs a sign-in in the last 15 minutes: sign in again, then retry`,
      param ? { param } : undefined,
    );
}
