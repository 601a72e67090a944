import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";

import { invalid, notFound } from "../../errors";
import { routingDirectoryVersion, routingEntry } from "../../payments/routing-directory";
import { abaChecksumValid } from "../../schemas/aba";
import type { AppEnv } from "../context";
import { allow } from "../middleware/auth";
import { commonErrors, jsonContent, security } from "../openapi";

// GET /v1/routing_numbers/{routing_number} (docs/reference.md section 13): the bank a US routing
// number names, from the Federal Reserve's routing directory shipped with the service. The wizard
// asks it as the merchant types (its session), an ISV's software with its key. A publishable key
// authenticates only the tokenizer, as everywhere.

const routingNumberSchema = z
  .object({
    object: z.literal("routing_number"),
    routing_number: z.string(),
    bank_name: z.string(),
    city: z.string(),
    state: z.string().meta({ description: "Two letters; empty for a foreign bank reached through FedGlobal" }),
    directory_version: z.string().meta({ description: "The directory's edition (its newest change date)" }),
  })
  .meta({ id: "RoutingNumber" });

const route = createRoute({
  method: "get",
  path: "/v1/routing_numbers/{routing_number}",
  tags: ["Routing numbers"],
  summary: "Look up a routing number's bank",
  description:
    "The bank a US ABA routing number names in the Federal Reserve's E-Payments Routing Directory (FedACH participants). 400 `parameter_invalid` when the number is not nine digits with a valid checksum; 404 when the directory does not know it (a valid number may be newer than the directory).",
  security: [...security.isv, ...security.onboarding],
  middleware: [allow({ kinds: ["api_key", "user", "onboarding"] })] as const,
  request: {
    params: z.object({
      routing_number: z
        .string()
        .max(64)
        .meta({ param: { name: "routing_number", in: "path" }, example: "021000021" }),
    }),
  },
  responses: {
    200: {
      description: "The bank",
      ...jsonContent(routingNumberSchema, {
        object: "routing_number",
        routing_number: "021000021",
        bank_name: "JPMorgan Chase",
        city: "Tampa",
        state: "FL",
        directory_version: "2018-12-04",
      }),
    },
    ...commonErrors,
  },
});

export function routingNumberRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const { routing_number } = c.req.valid("param");
    if (!abaChecksumValid(routing_number))
      throw invalid("routing_number", "A routing number is nine digits with a valid ABA checksum");
    const entry = await routingEntry(routing_number);
    if (!entry) throw notFound("routing number", routing_number, "routing_number");
    c.header("Cache-Control", "private, max-age=86400");
    return c.json(
      {
        object: "routing_number" as const,
        routing_number: entry.routingNumber,
        bank_name: entry.bankName,
        city: entry.city,
        state: entry.state,
        directory_version: await routingDirectoryVersion(),
      },
      200,
    );
  });
}
