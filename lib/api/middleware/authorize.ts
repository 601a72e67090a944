import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";

import { permissionDenied, roleMay } from "../../auth/permissions";
import type { AppEnv } from "../context";
import { routePermission } from "../route-permissions";

/**
 * After authentication: a dashboard token may do what its member's role allows (section 23), for
 * the permission the matched route needs (lib/api/route-permissions.ts). API keys pass: a key is
 * the account's own.
 */
export const authorize: MiddlewareHandler<AppEnv> = async (c, next) => {
  const principal = c.var.principal;
  if (principal?.kind === "user") {
    const needed = routePermission(c.req.method, routePath(c, -1));
    if (needed && needed !== "open" && !roleMay(principal.role, needed)) throw permissionDenied(principal.role, needed);
  }
  return next();
};
