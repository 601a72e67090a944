import { digestSecret, generateAccountSid, generateSecretKey, hashPassword } from "../../auth/secrets";
import { accounts, apiKeys, users } from "../../db/schema";
import { type Db } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { initialDefaults, initialSettings } from "../../schemas/account";
import { initialDefaultCapabilities } from "../../schemas/capabilities";
import { LATEST_API_VERSION } from "../../versions/versions";
import { recordAudit } from "../audit/record-audit";
import { findUserByEmail } from "./find-user-by-email";

export type CreateIsvInput = { name: string; email: string; password: string; live: boolean };

/** Registers an ISV (an operator action): the account, its first user and its master API key. */
export async function createIsv(db: Db, input: CreateIsvInput) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AppError("parameter_invalid", "--email must be an e-mail address", { param: "email" });
  if (input.password.length < 10)
    throw new AppError("parameter_invalid", "--password must be at least 10 characters", { param: "password" });
  if (!input.name.trim()) throw new AppError("parameter_missing", "--name is required", { param: "name" });
  if (await findUserByEmail(db, email))
    throw new AppError("email_taken", `A user with e-mail ${email} already exists`, { param: "email" });

  const accountId = createId("acct");
  const sid = generateAccountSid();
  const secretKey = generateSecretKey(input.live);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await tx.insert(accounts).values({
      id: accountId,
      type: "isv",
      sid,
      name: input.name.trim(),
      defaults: initialDefaults(input.name.trim()),
      defaultCapabilities: initialDefaultCapabilities,
      settings: initialSettings,
      // Pinned to the version of today (docs/reference.md section 22).
      apiVersion: LATEST_API_VERSION,
    });
    await tx.insert(users).values({ id: createId("usr"), accountId, email, passwordHash });
    await tx
      .insert(apiKeys)
      .values({ id: createId("key"), accountId, secretDigest: digestSecret(secretKey), last4: secretKey.slice(-4) });
    await recordAudit(tx, { accountId, action: "account.created", resourceId: accountId, fields: ["name", "email"] });
  });
  return { account_id: accountId, account_sid: sid, secret_key: secretKey, user_email: email, name: input.name.trim() };
}
