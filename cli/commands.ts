import os from "node:os";
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";

import { type DatabaseHandle } from "@/lib/db/types";

import { asActor } from "../lib/audit/actor";
import { createIsv } from "../lib/domain/accounts/create-isv";
import { listIsvs } from "../lib/domain/accounts/list-isvs";
import { releaseAccountPayouts } from "../lib/domain/accounts/payout-account-change";
import { rotateApiKey } from "../lib/domain/accounts/rotate-api-key";
import { type CostProfileChange, getCostProfile, setCostProfile } from "../lib/domain/accounts/set-cost-profile";
import { rewrapAll } from "../lib/domain/keys/rewrap";
import { operatorMerchantText, operatorMerchantView } from "../lib/domain/merchants/operator-view";
import { listOutbox } from "../lib/domain/notifications/list-outbox";
import { releaseMerchantPayouts } from "../lib/domain/payouts/operator-release";
import { payoutSettingsOf } from "../lib/domain/payouts/settings";
import { resumeAccountPayouts } from "../lib/domain/residuals/account-payouts";
import { operatorResetFactors } from "../lib/domain/team/members";
import { reviewMerchant } from "../lib/domain/underwriting/review-merchant";
import { env } from "../lib/env";
import { AppError } from "../lib/errors";
import { serializeOutboxMessage } from "../lib/serializers/outbox";
import { reserveCommand } from "./reserve-command";
import { usage } from "./usage";

export { usage };

// The operator's cost-profile flags: the profile's figure each one sets (docs/reference.md section 19).
const costFlags: [string, "card" | "ach" | null, string][] = [
  ["network-bps", "card", "network_bps"],
  ["processor-bps", "card", "processor_bps"],
  ["processor-per-item", "card", "processor_per_item"],
  ["ach-per-item", "ach", "per_item"],
  ["ach-return-cost", "ach", "return_cost"],
  ["dispute-cost", null, "dispute_cost"],
  ["payout-cost", null, "payout_cost"],
  ["instant-payout-bps", null, "instant_payout_bps"],
  ["revenue-share-percent", null, "revenue_share_percent"],
];

export type CommandResult = { code: number; stdout: string; stderr: string };

// Every option any command takes; an unknown one is an error that prints the usage.
const options = {
  name: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  json: { type: "boolean" },
  account: { type: "string" },
  approve: { type: "boolean" },
  "approve-bank": { type: "boolean" },
  unfreeze: { type: "boolean" },
  decline: { type: "boolean" },
  request: { type: "string" },
  reason: { type: "string" },
  "forward-to": { type: "string" },
  "api-url": { type: "string" },
  "account-sid": { type: "string" },
  "secret-key": { type: "string" },
  "max-events": { type: "string" },
  "network-bps": { type: "string" },
  "processor-bps": { type: "string" },
  "processor-per-item": { type: "string" },
  "ach-per-item": { type: "string" },
  "ach-return-cost": { type: "string" },
  "dispute-cost": { type: "string" },
  "payout-cost": { type: "string" },
  "instant-payout-bps": { type: "string" },
  "revenue-share-percent": { type: "string" },
  rolling: { type: "string" },
  "hold-days": { type: "string" },
  fixed: { type: "string" },
  "release-on": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

export type ParsedArgs = { positional: string[]; flags: ReturnType<typeof parse>["values"] };
const parse = (argv: string[]) => nodeParseArgs({ args: argv, options, allowPositionals: true, strict: true });

/** The command line, parsed by node:util (throws a TypeError naming a bad or unknown option). */
export function parseArgs(argv: string[]): ParsedArgs {
  const { values, positionals } = parse(argv);
  return { positional: positionals, flags: values };
}

/** Runs one operator command against a database. The same code runs in the CLI process or in the server. */
/**
 * One operator command, audited as the CLI (docs/reference.md section 17) under the operator's
 * name: OPERATOR_NAME, else the system user running it.
 */
export function runCommand(handle: DatabaseHandle, argv: string[]): Promise<CommandResult> {
  return asActor({ type: "cli", id: operatorName() }, () => runOperatorCommand(handle, argv));
}

function operatorName() {
  try {
    return (process.env.OPERATOR_NAME || os.userInfo().username || "operator").slice(0, 64);
  } catch {
    return "operator";
  }
}

async function runOperatorCommand(handle: DatabaseHandle, argv: string[]): Promise<CommandResult> {
  const fail = (message: string, code = 1): CommandResult => ({ code, stdout: "", stderr: `${message}\n` });
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`, 2);
  }
  const { positional, flags } = parsed;
  const json = flags.json === true;
  const ok = (value: unknown, human: string): CommandResult => ({
    code: 0,
    stdout: (json ? JSON.stringify(value, null, 2) : human) + "\n",
    stderr: "",
  });
  try {
    const [group, action, ...rest] = positional;
    if (group === "isv" && action === "create") {
      const name = flags.name;
      const email = flags.email;
      const password = flags.password;
      if (!name || !email || !password) return fail(`isv create needs --name, --email and --password\n\n${usage}`, 2);
      const created = await createIsv(handle.db, { name, email, password, live: env.APP_ENV === "production" });
      return ok(
        created,
        `Created ISV ${created.name}\n  account_id   ${created.account_id}\n  account_sid  ${created.account_sid}\n  secret_key   ${created.secret_key}   (shown once)\n  user_email   ${created.user_email}`,
      );
    }
    if (group === "isv" && action === "list") {
      const rows = await listIsvs(handle.db);
      const data = rows.map((r) => ({
        account_id: r.id,
        account_sid: r.sid,
        name: r.name,
        created_at: r.createdAt.toISOString(),
      }));
      return ok(
        data,
        data.length ? data.map((r) => `${r.account_id}  ${r.account_sid}  ${r.name}`).join("\n") : "No ISVs yet",
      );
    }
    if (group === "isv" && action === "rotate-key") {
      const accountId = rest[0] ?? flags.account;
      if (!accountId) return fail(`isv rotate-key needs an account id\n\n${usage}`, 2);
      const rotated = await rotateApiKey(handle.db, accountId, env.APP_ENV === "production");
      return ok(
        rotated,
        `New secret key for ${rotated.account_id} (the old one no longer works):\n  account_sid  ${rotated.account_sid}\n  secret_key   ${rotated.secret_key}   (shown once)`,
      );
    }
    if (group === "isv" && action === "cost-profile") {
      const [verb, accountId] = rest;
      if ((verb !== "show" && verb !== "set") || !accountId)
        return fail(`isv cost-profile needs show or set and an account id\n\n${usage}`, 2);
      let profile;
      if (verb === "show") profile = await getCostProfile(handle.db, accountId);
      else {
        const change: CostProfileChange = {};
        for (const [flag, group, key] of costFlags) {
          const value = flags[flag as keyof typeof flags];
          if (value === undefined) continue;
          if (typeof value !== "string" || !/^\d+$/.test(value))
            return fail(`Error: --${flag} must be a whole number, not ${JSON.stringify(value)}`, 2);
          const number = Number(value);
          if (group === "card") change.card = { ...change.card, [key]: number };
          else if (group === "ach") change.ach = { ...change.ach, [key]: number };
          else Object.assign(change, { [key]: number });
        }
        if (Object.keys(change).length === 0)
          return fail(`isv cost-profile set needs at least one figure to change\n\n${usage}`, 2);
        profile = await setCostProfile(handle.db, accountId, change);
      }
      return ok(
        profile,
        [
          `Cost profile of ${accountId}:`,
          `  cards        interchange at cost + ${profile.card.network_bps} bps network + ${profile.card.processor_bps} bps and ${profile.card.processor_per_item}¢ processor`,
          `  ACH          ${profile.ach.per_item}¢ a debit, ${profile.ach.return_cost}¢ a return`,
          `  disputes     ${profile.dispute_cost}¢ each`,
          `  payouts      ${profile.payout_cost}¢ each, instant ${profile.instant_payout_bps} bps`,
          `  ISV's share  ${profile.revenue_share_percent}% of the margin`,
        ].join("\n"),
      );
    }
    if (group === "isv" && action === "payouts") {
      const [verb, accountId] = rest;
      if (verb !== "release" || !accountId) return fail(`isv payouts needs release and an account id\n\n${usage}`, 2);
      const released = await releaseAccountPayouts(handle.db, accountId, resumeAccountPayouts);
      return ok(
        { account_id: accountId, released },
        released
          ? `${accountId}: payouts released; the residuals that wait are paid when the bank account allows`
          : `${accountId}: payouts were not frozen (open "this wasn't us" links ended)`,
      );
    }
    if (group === "merchant" && action === "show") {
      if (!rest[0]) return fail(`merchant show needs a merchant id\n\n${usage}`, 2);
      const view = await operatorMerchantView(handle.db, rest[0]);
      return ok(view, operatorMerchantText(view));
    }
    if (group === "merchant" && action === "review") {
      const merchantId = rest[0];
      const reason = flags.reason;
      const field = flags.request;
      const chosen = [flags.approve === true, flags.decline === true, field !== undefined].filter(Boolean).length;
      if (!merchantId || chosen !== 1 || (field !== undefined && !reason))
        return fail(
          `merchant review needs a merchant id and one of --approve, --decline or --request <field> --reason "<text>"\n\n${usage}`,
          2,
        );
      const decision =
        flags.approve === true
          ? { action: "approve" as const }
          : flags.decline === true
            ? { action: "decline" as const, reason }
            : { action: "request" as const, field: field ?? "", reason: reason ?? "" };
      const row = await reviewMerchant(handle.db, {}, merchantId, decision, "operator");
      return ok(
        { merchant_id: row.id, lead_onboarding_status: row.status, requirements: row.requirements },
        `${row.id} is now ${row.status}`,
      );
    }
    if (group === "merchant" && action === "payouts") {
      const merchantId = rest[0];
      if (!merchantId || (flags["approve-bank"] !== true && flags.unfreeze !== true))
        return fail(`merchant payouts needs a merchant id and --approve-bank or --unfreeze\n\n${usage}`, 2);
      const row = await releaseMerchantPayouts(handle.db, merchantId, {
        approveBank: flags["approve-bank"] === true,
        unfreeze: flags.unfreeze === true,
      });
      const frozen = (await payoutSettingsOf(handle.db, row.id)).frozenAt !== null;
      return ok(
        { merchant_id: row.id, payouts_frozen: frozen },
        `${row.id}: payouts looked at again (frozen: ${frozen ? "yes" : "no"})`,
      );
    }
    if (group === "merchant" && action && ["reserve", "reserves", "reserve-release"].includes(action)) {
      const done = await reserveCommand(handle, action, rest, flags);
      return done ? ok(done.value, done.human) : fail(`merchant ${action} needs a merchant id\n\n${usage}`, 2);
    }
    if (group === "member" && action === "factors-reset") {
      if (!flags.email) return fail(`member factors-reset needs --email\n\n${usage}`, 2);
      const reset = await operatorResetFactors(handle.db, flags.email);
      return ok(
        reset,
        `${reset.email} (${reset.role} of ${reset.account_id}): ${reset.factors_removed} second factor(s) and every recovery code removed, every session ended; a new factor is set up at the next sign-in`,
      );
    }
    if (group === "keys" && action === "rewrap") {
      const done = await rewrapAll(handle.db);
      return ok(
        done,
        `Under key ${done.key_id} now: ${done.merchants} merchant(s), ${done.webhooks} webhook secret(s), ${done.accounts} ISV bank account(s), ${done.account_payouts} ISV payout destination(s), ${done.user_factors} authenticator-app secret(s) and ${done.files} document(s) rewritten; everything else already was. The previous key can be dropped from ENCRYPTION_KEYS_PREVIOUS.`,
      );
    }
    if (group === "outbox" && action === "list") {
      const rows = (await listOutbox(handle.db, { accountId: flags.account, limit: 100 })).map((row) =>
        serializeOutboxMessage(row),
      );
      return ok(
        rows,
        rows.length
          ? rows.map((m) => `${m.created_at}  ${m.kind.padEnd(30)} ${m.to.padEnd(32)} ${m.subject}`).join("\n")
          : "The outbox is empty",
      );
    }
    return fail(usage, 2);
  } catch (error) {
    if (error instanceof AppError)
      return fail(
        json ? JSON.stringify({ error: { code: error.code, message: error.message } }) : `Error: ${error.message}`,
      );
    throw error;
  }
}
