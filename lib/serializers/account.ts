import type { AccountRow } from "../domain/accounts/get-account";
import type { z } from "zod";
import type { accountSchema } from "../schemas/account";

export function serializeAccount(row: AccountRow): z.infer<typeof accountSchema> {
  return {
    object: "account",
    id: row.id,
    type: row.type,
    account_sid: row.sid,
    name: row.name,
    defaults: row.defaults as never,
    default_capabilities: row.defaultCapabilities as never,
    settings: row.settings as never,
    created_at: row.createdAt.toISOString(),
  };
}
