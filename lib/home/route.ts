import "server-only";

import { asActor } from "../audit/actor";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
import { getDatabase } from "../db/client";
import type { Db } from "../db/types";
import { AppError, httpStatusOf } from "../errors";
import { log } from "../log";
import { homeActor } from "./actor";
import { isSameOrigin } from "./same-origin";
import { type HomeAccess, routeAccess } from "./session";

type Home = NonNullable<Awaited<ReturnType<typeof routeAccess>>>;

/**
 * The home's route handlers (downloads, uploads, the pages' polling), all through one door: the
 * request's origin when it changes something (`sameOrigin`: "required" for the pages' own fetches,
 * "lax" for a plain form post, which an old browser may send without an Origin), the merchant of the
 * home session or of an embedded component that opens it (`access`; none: 404), the audit's actor
 * (the merchant, or the ISV through its login link) with the client's address, and the application's refusals turned into an
 * answer: the handler's own `refused`, or the error's HTTP status (lib/errors.ts). Anything else is
 * logged and thrown.
 */
export function homeRoute<P extends Record<string, string> = Record<string, never>>(
  options: {
    access?: HomeAccess;
    sameOrigin?: "required" | "lax";
    refused?: (error: AppError) => Response;
  },
  handler: (context: { request: Request; params: P; db: Db; home: Home; client: string }) => Promise<Response>,
) {
  return async (request: Request, { params }: { params: Promise<P> }): Promise<Response> => {
    if (options.sameOrigin && !isSameOrigin(request, options.sameOrigin === "required"))
      return new Response("Forbidden", { status: 403 });
    const { db } = await getDatabase();
    const home = await routeAccess(db, options.access ?? {});
    if (!home) return new Response("Not found", { status: 404 });
    const client = request.headers.get(CLIENT_ADDRESS_HEADER);
    const actor = homeActor(home, client);
    try {
      return await asActor(actor, async () =>
        handler({ request, params: await params, db, home, client: client ?? "unknown" }),
      );
    } catch (error) {
      if (error instanceof AppError && error.isClientError)
        return (
          options.refused?.(error) ??
          new Response(error.type === "not_found_error" ? "Not found" : error.message, { status: httpStatusOf(error) })
        );
      log.error({ err: error, path: new URL(request.url).pathname }, "a home route failed");
      throw error;
    }
  };
}
