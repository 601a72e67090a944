import { eq } from "drizzle-orm";

import { signUserToken, USER_TOKEN_TTL_SECONDS } from "../../auth/jwt";
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from "../../auth/secrets";
import { users } from "../../db/schema";
import { type DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { findUserByEmail } from "./find-user-by-email";

/** `account-password-sign-in`: e-mail and password → a Bearer JWT. Same answer and time for any wrong pair. */
export async function signIn(db: DbOrTx, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  if (!user || !ok) throw new AppError("invalid_credentials", "Wrong e-mail or password");
  // A hash made with older, weaker parameters is replaced now that the password is known.
  if (needsRehash(user.passwordHash))
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  const accessToken = await signUserToken({ sub: user.id, account_id: user.accountId });
  return { access_token: accessToken, token_type: "Bearer" as const, expires_in: USER_TOKEN_TTL_SECONDS, user };
}
