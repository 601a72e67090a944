import { execFile } from "node:child_process";
import { createDecipheriv, createHash } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";

import { sql } from "drizzle-orm";
import sharp from "sharp";
import { expect, test } from "vitest";

// Key rotation (docs/decisions.md): the service starts with a new ENCRYPTION_KEY and the old one in
// ENCRYPTION_KEYS_PREVIOUS; `npm run cli -- keys rewrap` then writes every sensitive field, webhook
// secret and document again under the new key, so the old one can be dropped.
const oldKey = "ab".repeat(32);
const newKey = "cd".repeat(32);
process.env.ENCRYPTION_KEY = oldKey;
process.env.JWT_SECRET = "j".repeat(40);
const { startTestApi } = await import("./helpers/api");
const { application } = await import("./helpers/fixtures");
const { appFor, signInWithCode } = await import("./helpers/sign-in");
const { openDatabase } = await import("@/lib/db/client");
const { env } = await import("@/lib/env");

const exec = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");
const keyId = (hex: string) => createHash("sha256").update(Buffer.from(hex, "hex")).digest("hex").slice(0, 8);

/** Opens an envelope by hand with one key: proof that it needs that key and no other. */
function openField(envelope: string, hex: string) {
  const [, , iv, tag, body] = envelope.split(".");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(hex, "hex"), Buffer.from(iv!, "base64url"));
  decipher.setAuthTag(Buffer.from(tag!, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body!, "base64url")), decipher.final()]).toString("utf8");
}
function openBytes(sealed: Buffer, hex: string) {
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(hex, "hex"), sealed.subarray(9, 21));
  decipher.setAuthTag(sealed.subarray(21, 37));
  return Buffer.concat([decipher.update(sealed.subarray(37)), decipher.final()]);
}

test("keys rewrap moves every envelope to the new key (fields, webhook secrets, documents); a second run has nothing to do", async () => {
  const api = await startTestApi();
  const isv = await api.newIsv("Rotation ISV");
  const app = application();
  const merchant = await api.call("POST", "/v1/merchants", {
    auth: isv.auth,
    body: { phone: "+14155550123", merchant: app },
  });
  expect(merchant.status).toBe(200);
  const hook = await api.call("POST", "/v1/webhooks", {
    auth: isv.auth,
    body: { url: "http://127.0.0.1:9/hook", scopes: ["merchant"] },
  });
  expect(hook.status).toBe(200);
  const photo = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set("purpose", "additional_verification");
  form.set("merchant_id", merchant.json.id);
  form.set("file", new Blob([new Uint8Array(photo)]), "id.png");
  const uploaded = await fetch(`${api.baseUrl}/v1/files`, {
    method: "POST",
    body: form,
    headers: { authorization: isv.auth },
  });
  expect(uploaded.status).toBe(200);
  const fileId = (await uploaded.json()).id as string;
  // The ISV's own payout bank account (a user's fresh sign-in may give it).
  // Signed in with the owner's authenticator app (its secret is encrypted too).
  const signIn = await signInWithCode(api, { email: isv.user_email, password: isv.password });
  const totp = await appFor(api.db, isv.user_email);
  const payoutBank = await api.call("PATCH", "/v1/account", {
    auth: `Bearer ${signIn.json.access_token}`,
    body: {
      payout_bank_account: {
        routing_number: "021000021",
        account_number: "000123456789",
        account_holder_name: "Rotation",
      },
    },
  });
  expect(payoutBank.status, payoutBank.text).toBe(200);
  const served = Buffer.from(
    await (
      await fetch(`${api.baseUrl}/v1/files/${fileId}/contents`, { headers: { authorization: isv.auth } })
    ).arrayBuffer(),
  );
  await api.close();

  const rewrap = async () =>
    JSON.parse(
      (
        await exec(tsx, ["cli/index.ts", "keys", "rewrap", "--json"], {
          env: { ...process.env, ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey },
        })
      ).stdout,
    );
  // (An ISV payout's destination is rewritten like the account's: none was made here.)
  const nothing = { merchants: 0, webhooks: 0, accounts: 0, account_payouts: 0, user_factors: 0, files: 0 };
  expect(await rewrap()).toEqual({
    key_id: keyId(newKey),
    ...nothing,
    merchants: 1,
    webhooks: 1,
    accounts: 1,
    user_factors: 1,
    files: 1,
  });
  expect(await rewrap()).toEqual({ key_id: keyId(newKey), ...nothing });

  const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, poolSize: 1 });
  try {
    const [row] = (await handle.db.execute(sql`select application from merchants where id = ${merchant.json.id}`))
      .rows as { application: any }[];
    const text = JSON.stringify(row!.application);
    expect(text).not.toContain(`v1.${keyId(oldKey)}.`);
    expect(openField(row!.application.owner_one.ssn.$enc, newKey)).toBe(app.owner_one.ssn);
    expect(openField(row!.application.bank_account.account_number.$enc, newKey)).toBe(app.bank_account.account_number);
    expect(() => openField(row!.application.tin.$enc, oldKey)).toThrow();
    const [secret] = (await handle.db.execute(sql`select secret from webhooks where id = ${hook.json.id}`)).rows as {
      secret: any;
    }[];
    expect(secret!.secret.$enc.split(".")[1]).toBe(keyId(newKey));
    expect(openField(secret!.secret.$enc, newKey)).toBe(hook.json.secret);
    const [isvRow] = (
      await handle.db.execute(sql`select payout_bank_account from accounts where id = ${isv.account_id}`)
    ).rows as { payout_bank_account: any }[];
    expect(openField(isvRow!.payout_bank_account.account_number.$enc, newKey)).toBe("000123456789");
    const [factor] = (
      await handle.db.execute(sql`select secret from user_factors where secret is not null and user_id in
        (select id from users where account_id = ${isv.account_id})`)
    ).rows as { secret: any }[];
    expect(openField(factor!.secret.$enc, newKey)).toBe(totp.secret);
    const [content] = (await handle.db.execute(sql`select content from file_contents where file_id = ${fileId}`))
      .rows as { content: Uint8Array }[];
    const sealed = Buffer.from(content!.content);
    expect(sealed.subarray(1, 9).toString("ascii")).toBe(keyId(newKey));
    expect(openBytes(sealed, newKey).equals(served)).toBe(true);
  } finally {
    await handle.close();
  }
}, 90_000);
