import { z } from "zod";

export const tokenRequestSchema = z
  .strictObject({ email: z.string().min(1).max(254), password: z.string().min(1).max(256) })
  .meta({ id: "TokenRequest" });
export const tokenResponseSchema = z
  .object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int() })
  .meta({ id: "TokenResponse" });
