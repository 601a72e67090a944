import "server-only";

import { cookies, headers } from "next/headers";
import { cache } from "react";

import { frameState } from "../domain/embed/account-sessions";
import { EMBED_COMPONENT_HEADER, embedCookie } from "../embed/frame";
import { embedComponents } from "../schemas/account-sessions";

/**
 * This request's embedded-component frame (its cookies exist only inside the ISV's page), once per
 * request: the session of the page's own component (the proxy names it), else any of the
 * partition's (a page of no component, such as "Not available here").
 */
export const currentFrame = cache(async () => {
  const jar = await cookies();
  const own = (await headers()).get(EMBED_COMPONENT_HEADER);
  const order = [...embedComponents].sort((a, b) => Number(b === own) - Number(a === own));
  let expired: Awaited<ReturnType<typeof frameState>> | null = null;
  for (const component of order) {
    const state = await frameState(jar.get(embedCookie(component))?.value);
    if (state.kind === "active") return state;
    if (state.kind === "expired") expired ??= state;
  }
  return expired ?? { kind: "none" as const };
});
