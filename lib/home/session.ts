import "server-only";

import { and, eq } from "drizzle-orm";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { asActor } from "../audit/actor";
import { HOME_COOKIE } from "../auth/cookies";
import { homeSessionOf } from "../auth/home-session";
import { CLIENT_ADDRESS_HEADER } from "../auth/sign-in-limiter";
import { servesIsvPages } from "../branding/hosts";
import { getDatabase } from "../db/client";
import { type AccountRow, merchants, type MerchantSessionRow } from "../db/schema";
import type { Db } from "../db/types";
import { getAccount } from "../domain/accounts/get-account";
import { allows, type FrameSession, frameState } from "../domain/embed/account-sessions";
import { merchantScope } from "../domain/scope";
import { embedCookie } from "../embed/frame";
import type { EmbedComponent } from "../schemas/account-sessions";
import { homeActor } from "./actor";
import { currentFrame } from "./current-frame";

/** A home page's place among the embedded components: which open it, and the feature an action needs. */
export type HomeAccess = { components?: readonly EmbedComponent[]; feature?: "refunds" | "dispute_management" };

/**
 * The merchant a request acts for, and its frame session inside an embedded component: the frame's
 * cookie (its merchant, only on the pages of the components it opens, only with their features), or
 * else the home's 12-hour session cookie. Why not, otherwise.
 */
async function resolveMerchant(db: Db, access: HomeAccess) {
  const jar = await cookies();
  // Inside a frame: the session of one of the components that contain this page.
  let expired = false;
  let other = false;
  for (const component of access.components ?? []) {
    const state = await frameState(jar.get(embedCookie(component))?.value);
    if (state.kind === "expired") expired = true;
    if (state.kind !== "active") continue;
    const frame = state.session;
    if (!frame.components[component]?.enabled) continue;
    if (access.feature && !allows(frame, component, access.feature)) return { refused: "component" as const };
    const [merchant] = await db
      .select()
      .from(merchants)
      .where(and(eq(merchants.id, frame.merchantId), eq(merchants.isvAccountId, frame.isvAccountId)));
    if (!merchant) return { refused: "component" as const };
    if (merchant.status !== "APPROVED") return { refused: "not_approved" as const };
    return {
      merchant,
      frame: frame as FrameSession | null,
      session: null as MerchantSessionRow | null,
      isv: null as AccountRow | null,
    };
  }
  if (expired) return { refused: "expired" as const };
  // A frame of another component (this page is not one of its pages): not here.
  const state = await currentFrame();
  if (state.kind === "active") other = true;
  if (other) return { refused: "component" as const };
  if (state.kind === "expired") return { refused: "expired" as const };
  const home = await homeSessionOf(db, jar.get(HOME_COOKIE)?.value);
  if (!home) return { refused: "signed_out" as const };
  // Only on the service's host or the merchant's own ISV's verified domain, as onboarding.
  const host = (await headers()).get("host") ?? "";
  const isv = await getAccount(db, home.merchant.isvAccountId);
  if (!servesIsvPages(host, isv)) return { refused: "signed_out" as const };
  return { merchant: home.merchant, frame: null, session: home.session, isv };
}

/**
 * The signed-in merchant of the home (its 12-hour session cookie, or an embedded component's frame
 * session that opens this page), with its ISV; or a redirect to sign in (to the frame's "not here"
 * page inside a frame).
 */
export async function requireMerchant(access: HomeAccess = {}) {
  const { db } = await getDatabase();
  const found = await resolveMerchant(db, access);
  if ("refused" in found) {
    if (found.refused === "signed_out") redirect("/home/sign-in");
    redirect(`/home/unavailable?reason=${found.refused}`);
  }
  // The home session's check read the ISV already (its host); a frame's did not.
  const isv = found.isv ?? (await getAccount(db, found.merchant.isvAccountId));
  return {
    db,
    merchant: found.merchant,
    scope: merchantScope(found.merchant),
    isv,
    frame: found.frame,
    session: found.session,
  };
}

/** For the home's route handlers: the merchant and, inside an embedded component, its frame session (null: 404). */
export async function routeAccess(db: Db, access: HomeAccess = {}) {
  const found = await resolveMerchant(db, access);
  return "refused" in found
    ? null
    : { merchant: found.merchant, scope: merchantScope(found.merchant), frame: found.frame, session: found.session };
}

/**
 * A home action as the signed-in merchant: every change it makes is audited under that merchant
 * (via `home`, or `embedded` inside an ISV's page), with the client's address; a session the ISV
 * opened with its own login link is audited as the ISV acting in the merchant's home.
 */
export async function asMerchant<T>(
  work: (home: Awaited<ReturnType<typeof requireMerchant>>) => Promise<T>,
  access: HomeAccess = {},
): Promise<T> {
  const home = await requireMerchant(access);
  return asActor(homeActor(home, (await headers()).get(CLIENT_ADDRESS_HEADER)), () => work(home));
}
