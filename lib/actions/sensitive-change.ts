import "server-only";

import { revalidatePath } from "next/cache";

import { assertFreshSignIn } from "@/lib/auth/fresh-sign-in";
import { asIsvUser, type IsvMember, type PermissionSpec } from "@/lib/dashboard/session";

import { type Attempt, attempt } from "./result";

/**
 * A sensitive change from a dashboard page (the team, API keys): the member's role allows `spec`,
 * its sign-in is of the last 15 minutes, the refusal comes back in words, and `page` is refreshed
 * after a change that was made.
 */
export const sensitiveChange = <T>(
  spec: PermissionSpec,
  page: string,
  work: (member: IsvMember) => Promise<T>,
): Promise<Attempt<T>> =>
  asIsvUser(spec, async (member) => {
    const done = await attempt(async () => {
      assertFreshSignIn(member.signedInAt);
      return work(member);
    });
    if (done.ok) revalidatePath(page, "page");
    return done;
  });
