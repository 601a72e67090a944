import { randomBytes } from "node:crypto";

import { and, eq, isNull, sql } from "drizzle-orm";

import { encryptField } from "../../crypto/field-encryption";
import { one } from "../../db/one";
import { accounts, webhooks } from "../../db/schema";
import { type Db } from "../../db/types";
import { env } from "../../env";
import { AppError, invalid } from "../../errors";
import { createId } from "../../ids";
import type { CreateWebhookInput } from "../../schemas/webhook";
import { LATEST_API_VERSION } from "../../versions/versions";
import { assertPublicHost, UnsafeAddressError } from "../../webhooks/address-guard";
import { recordAudit } from "../audit/record-audit";

/** Each endpoint costs every event a delivery: an account's endpoints are capped (docs/decisions.md). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 16;

/** Production webhooks: https only, and the host must resolve to public addresses. Sandbox: any http(s). */
export async function assertWebhookUrl(url: string, param = "url") {
  const target = new URL(url);
  if (env.APP_ENV !== "production") return;
  if (target.protocol !== "https:") throw invalid(param, `${param} must use https`);
  try {
    await assertPublicHost(target.hostname);
  } catch (error) {
    if (error instanceof UnsafeAddressError) throw invalid(param, `${param}: ${error.message}`);
    throw error;
  }
}

export async function createWebhook(db: Db, accountId: string, input: CreateWebhookInput) {
  await assertWebhookUrl(input.url);
  if (input.secret?.startsWith("whsec_") && !/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/.test(input.secret)) {
    throw new AppError("parameter_invalid", "A secret starting with whsec_ must be followed by base64", {
      param: "secret",
    });
  }
  const secret = input.secret ?? `whsec_${randomBytes(32).toString("base64")}`;
  return db.transaction(async (tx) => {
    // The account's row is locked while counting, so two creates at once cannot pass the cap together.
    const [account] = await tx
      .select({ id: accounts.id, apiVersion: accounts.apiVersion })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for("update");
    const [{ n }] = (await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, accountId), isNull(webhooks.deletedAt)))) as [{ n: number }];
    if (n >= MAX_WEBHOOKS_PER_ACCOUNT)
      throw new AppError(
        "invalid_request",
        `An account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks: delete one before adding another`,
      );
    const row = one(
      await tx
        .insert(webhooks)
        .values({
          id: createId("we"),
          accountId,
          url: input.url,
          scopes: [...new Set(input.scopes)],
          secret: encryptField(secret),
          description: input.description ?? null,
          // Its events in the version asked for, else the account's (docs/reference.md section 22).
          apiVersion: input.api_version ?? account?.apiVersion ?? LATEST_API_VERSION,
        })
        .returning(),
    );
    await recordAudit(tx, {
      accountId,
      action: "webhook.created",
      resourceId: row.id,
      fields: [
        "url",
        "scopes",
        ...(input.description !== undefined ? ["description"] : []),
        ...(input.api_version !== undefined ? ["api_version"] : []),
      ],
    });
    return { row: row, secret };
  });
}
