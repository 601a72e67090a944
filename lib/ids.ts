import { randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG bytes are drawn 4 KB at a time and handed out once each: one system call per ~150 ids
// instead of one per id (the request id alone is made on every request).
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;
function nextByte(): number {
  if (offset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool.readUInt8(offset++);
}

/** `length` characters of base62 from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextByte();
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

export type IdPrefix =
  | "acct"
  | "al"
  | "usr"
  | "pwr"
  | "inv"
  | "acr"
  | "key"
  | "mer"
  | "lnk"
  | "pr"
  | "ch"
  | "re"
  | "pcl"
  | "uss"
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
  | "stl"
  | "po"
  | "dp"
  | "as"
  | "file"
  | "mll"
  | "hs"
  | "txn"
  | "rep"
  | "res"
  | "rsv"
  | "pcard"
  | "cus"
  | "pm"
  | "sub"
  | "clock"
  | "plink"
  | "ra"
  | "fac"
  | "rc"
  | "wac";

/** Opaque, prefixed, unguessable ids (about 131 bits of randomness). */
export function createId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
