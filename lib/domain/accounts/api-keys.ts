import { and, asc, eq, gt, isNull, or } from "drizzle-orm";

import { accessLevels, type KeyPermissions, keyResources } from "../../auth/permissions";
import { digestSecret, generateSecretKey } from "../../auth/secrets";
import { clock } from "../../clock";
import { accounts, apiKeys } from "../../db/schema";
import type { Db, DbOrTx } from "../../db/types";
import { AppError } from "../../errors";
import { createId } from "../../ids";
import { recordAudit } from "../audit/record-audit";

// An ISV's API keys (docs/reference.md section 23): several, each named; a standard key is the whole
// account, a restricted key only the resources it was given; rolling a key makes its successor and
// keeps the old one working until a chosen time (now to 7 days). Only a key's digest is kept; its
// secret is shown once.

/** At most this many live keys per account (a forgotten key is revoked, not piled up). */
const KEYS_PER_ACCOUNT = 20;
export const MAX_ROLL_EXPIRY_HOURS = 7 * 24;

const live = (now: Date) => and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));

/** The account's keys that still work, oldest first (no secret, its last four characters). */
export function listApiKeys(db: DbOrTx, accountId: string, now = clock.now()) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      last4: apiKeys.last4,
      permissions: apiKeys.permissions,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), live(now)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** A key's name: 1 to 60 characters. */
function nameOf(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (!name || name.length > 60)
    throw new AppError("parameter_invalid", "A key's name has 1 to 60 characters", { param: "name" });
  return name;
}

/** A restricted key's permissions: each given resource `none`, `read` or `write`; at least one not `none`. */
export function parseKeyPermissions(value: unknown): KeyPermissions {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new AppError("parameter_invalid", "A restricted key needs its permissions", { param: "permissions" });
  const permissions: KeyPermissions = {};
  for (const [resource, access] of Object.entries(value)) {
    if (!(keyResources as readonly string[]).includes(resource))
      throw new AppError("parameter_invalid", `No resource ${resource} for a key`, {
        param: `permissions.${resource}`,
      });
    if (!(accessLevels as readonly string[]).includes(access as string))
      throw new AppError("parameter_invalid", "Each permission is none, read or write", {
        param: `permissions.${resource}`,
      });
    if (access !== "none") permissions[resource as keyof KeyPermissions] = access as "read" | "write";
  }
  if (Object.keys(permissions).length === 0)
    throw new AppError("parameter_invalid", "A restricted key with no permission opens nothing: give it at least one", {
      param: "permissions",
    });
  return permissions;
}

async function insertKey(
  tx: DbOrTx,
  accountId: string,
  name: string,
  permissions: KeyPermissions | null,
  live: boolean,
) {
  const secret = generateSecretKey(live, permissions ? "restricted" : "standard");
  const id = createId("key");
  await tx.insert(apiKeys).values({
    id,
    accountId,
    name,
    permissions,
    secretDigest: digestSecret(secret),
    last4: secret.slice(-4),
  });
  return { id, secret };
}

/** Locks the account (its keys' count) and answers its sid. */
async function lockAccount(tx: DbOrTx, accountId: string) {
  const [account] = await tx
    .select({ sid: accounts.sid })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for("update");
  if (!account) throw new AppError("resource_missing", "No such account");
  return account;
}

/** A new key, standard (`permissions` null) or restricted: its secret, shown this once. */
export async function createApiKey(
  db: Db,
  accountId: string,
  input: { name: unknown; permissions: unknown },
  options: { live: boolean; now?: Date },
) {
  const name = nameOf(input.name);
  const permissions =
    input.permissions === null || input.permissions === undefined ? null : parseKeyPermissions(input.permissions);
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, accountId);
    const keys = await listApiKeys(tx, accountId, options.now);
    if (keys.length >= KEYS_PER_ACCOUNT)
      throw new AppError("parameter_invalid", `At most ${KEYS_PER_ACCOUNT} keys work at once: revoke one first`);
    const made = await insertKey(tx, accountId, name, permissions, options.live);
    await recordAudit(tx, {
      accountId,
      action: "api_key.created",
      resourceId: made.id,
      fields: ["name", ...(permissions ? ["permissions"] : [])],
    });
    return { ...made, account_sid: account.sid, name, permissions };
  });
}

/** The key, if it is this account's and still works; else 404. */
async function ownKey(tx: DbOrTx, accountId: string, keyId: unknown, now: Date) {
  const [key] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, String(keyId)), eq(apiKeys.accountId, accountId), live(now)));
  if (!key || key.homeSessionId !== null) throw new AppError("resource_missing", "No such API key");
  return key;
}

/**
 * Rolls a key: its successor (same name and permissions, a new secret, shown once); the old key works
 * until `expiresInHours` from now (0: it stops at once; at most 7 days).
 */
export async function rollApiKey(
  db: Db,
  accountId: string,
  keyId: unknown,
  expiresInHours: unknown,
  options: { live: boolean; now?: Date },
) {
  const hours = Number(expiresInHours);
  if (!Number.isInteger(hours) || hours < 0 || hours > MAX_ROLL_EXPIRY_HOURS)
    throw new AppError("parameter_invalid", "The old key's expiry is from now to 7 days (0 to 168 hours)", {
      param: "expires_in_hours",
    });
  const now = options.now ?? clock.now();
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, accountId);
    const old = await ownKey(tx, accountId, keyId, now);
    const ends = new Date(now.getTime() + hours * 3_600_000);
    await tx
      .update(apiKeys)
      .set(
        hours === 0 ? { revokedAt: now } : { expiresAt: old.expiresAt && old.expiresAt < ends ? old.expiresAt : ends },
      )
      .where(eq(apiKeys.id, old.id));
    const made = await insertKey(tx, accountId, old.name, old.permissions, options.live);
    await recordAudit(tx, {
      accountId,
      action: "api_key.rotated",
      resourceId: old.id,
      fields: [`expires_in_hours:${hours}`],
    });
    return {
      ...made,
      account_sid: account.sid,
      name: old.name,
      permissions: old.permissions,
      oldExpiresAt: hours === 0 ? now : ends,
    };
  });
}

/** Revokes a key at once. The account's last standard key cannot go (the account would have no way in by API). */
export async function revokeApiKey(db: Db, accountId: string, keyId: unknown, now = clock.now()) {
  await db.transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const key = await ownKey(tx, accountId, keyId, now);
    if (key.permissions === null) {
      const standard = (await listApiKeys(tx, accountId, now)).filter((k) => k.permissions === null && k.id !== key.id);
      if (standard.length === 0)
        throw new AppError("invalid_state", "This is the account's last standard key: make or roll another first");
    }
    await tx.update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, key.id));
    await recordAudit(tx, { accountId, action: "api_key.revoked", resourceId: key.id });
  });
}
