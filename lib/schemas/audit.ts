import { z } from "zod";

import { listQuerySchema } from "./list";

export const auditLogSchema = z
  .object({
    object: z.literal("audit_log"),
    id: z.string(),
    actor: z.object({
      type: z.enum(["user", "api_key", "cli", "merchant", "isv"]),
      id: z.string().meta({
        description:
          "The user's id, the key's account, the merchant's id, the ISV's account (`isv`: acting in the merchant's home through a login link it made), or the operator's name",
      }),
      via: z.string().nullable().meta({
        description: "A merchant's `wizard`, `home` or `embedded`; an ISV's `home`; an API key's last four characters",
      }),
    }),
    action: z.string().meta({
      description: "What was done: an event type (`merchant.updated`) or `account.updated`, `webhook.created`…",
    }),
    resource_id: z.string(),
    fields: z.array(z.string()).meta({ description: "The names of the fields changed, never their values" }),
    request_id: z.string().nullable(),
    client_address: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "AuditLog" });

export const auditLogListQuery = listQuerySchema.extend({
  resource_id: z.string().max(64).optional(),
  actor: z.string().max(64).optional().meta({ description: "An actor's id" }),
  "created[gte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
  "created[lte]": z.coerce.number().int().min(0).optional().meta({ description: "Milliseconds since the epoch" }),
});
