import type http from "node:http";

export function startExample(options?: {
  port?: number;
  host?: string;
  api?: string;
  accountSid?: string;
  secretKey?: string;
}): Promise<http.Server>;

/** Your backend's one route: an account session for one component of a merchant; only its client secret is answered. */
export function accountSession(
  config: { api: string; auth: string },
  body: { component?: string; merchant_id?: string } | null,
): Promise<{ status: number; body: unknown }>;

/** POST /account-session as an HTTP answer (the request's JSON body; only the client secret is sent back). */
export function answerAccountSession(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  config: { api: string; auth: string },
): Promise<void>;
