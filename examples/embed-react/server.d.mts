import type http from "node:http";

export function startReactExample(options?: {
  port?: number;
  host?: string;
  api?: string;
  accountSid?: string;
  secretKey?: string;
}): Promise<http.Server>;
