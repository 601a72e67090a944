import { z } from "zod";

export const tokenRequestSchema = z
  .strictObject({
    email: z.string().min(1).max(254),
    password: z.string().min(1).max(256),
    code: z
      .string()
      .max(32)
      .optional()
      .describe(
        "The member's second factor: its authenticator app's six digits, or one of its recovery codes. Required when the member has set up an app",
      ),
  })
  .meta({ id: "TokenRequest" });
export const tokenResponseSchema = z
  .object({ access_token: z.string(), token_type: z.literal("Bearer"), expires_in: z.number().int() })
  .meta({ id: "TokenResponse" });
