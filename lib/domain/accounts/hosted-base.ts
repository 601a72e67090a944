import { hostedBaseUrl } from "../../branding/hosts";
import type { DbOrTx } from "../../db/types";
import { getAccount } from "./get-account";

/** Where an ISV's hosted pages live (its verified custom domain, else this service): the base of pay and QR urls. */
export async function hostedBaseOf(db: DbOrTx, isvAccountId: string) {
  return hostedBaseUrl(await getAccount(db, isvAccountId));
}
