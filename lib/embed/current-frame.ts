import "server-only";

import { cookies } from "next/headers";
import { cache } from "react";

import { frameState } from "../domain/embed/account-sessions";
import { EMBED_COOKIE } from "./frame";

/** This request's embedded-component frame (its cookie exists only inside the ISV's page), once per request. */
export const currentFrame = cache(async () => frameState((await cookies()).get(EMBED_COOKIE)?.value));
