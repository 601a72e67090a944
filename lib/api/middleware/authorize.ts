import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";

import { keyMay, keyRefusal, permissionDenied, roleMay } from "../../auth/permissions";
import type { AppEnv } from "../context";
import { routePermission } from "../route-permissions";

/**
 * After authentication: a dashboard token may do what its member's role allows (section 23), for
 * the permission the matched route needs (lib/api/route-permissions.ts); a restricted API key, what
 * its permissions give. A standard key is the whole account's.
 */
export const authorize: MiddlewareHandler<AppEnv> = async (c, next) => {
  const principal = c.get("principal");
  if (principal?.kind === "user") {
    const needed = routePermission(c.req.method, routePath(c, -1));
    if (needed && needed !== "open" && !roleMay(principal.role, needed)) throw permissionDenied(principal.role, needed);
  } else if (principal?.kind === "api_key" && principal.permissions) {
    // A restricted key: only what it was given; a path with no rule is refused too (no route at all: 404).
    const template = routePath(c, -1);
    const needed = routePermission(c.req.method, template);
    if (template !== "/v1/*" && needed !== "open" && (needed === undefined || !keyMay(principal.permissions, needed)))
      throw keyRefusal(needed);
  }
  return next();
};
