import { randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` characters of base62 from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += alphabet[byte % 62];
    }
  }
  return out;
}

export type IdPrefix =
  | "acct"
  | "usr"
  | "key"
  | "mer"
  | "lnk"
  | "pr"
  | "ch"
  | "re"
  | "we"
  | "whd"
  | "wha"
  | "evt"
  | "stmt"
  | "req"
  | "dev"
  | "job"
  | "msg"
  | "proc"
  | "gw"
  | "tml"
  | "tok"
  | "stl";

/** Opaque, prefixed, unguessable ids (about 131 bits of randomness). */
export function createId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
