import dns from "node:dns";
import net from "node:net";

// Addresses a production webhook may never reach: loopback, private, link-local, CGNAT,
// multicast, reserved, and their IPv6 forms.
// Two lists: Node matches an IPv4 address against IPv6 rules through its mapped form, so one list
// holding ::ffff:0:0/96 would refuse every IPv4 address.
const blocked = new net.BlockList();
const blockedV6 = new net.BlockList();
for (const [addr, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(addr, prefix, "ipv4");
for (const [addr, prefix] of [
  // IPv4-compatible (::a.b.c.d, :: and ::1 included), IPv4-mapped and IPv4-translated addresses
  // carry an IPv4 address that may be private: refused whole, like 6to4, Teredo and NAT64 below.
  ["::", 96],
  ["::ffff:0:0", 96],
  ["::ffff:0:0:0", 96],
  ["100::", 64],
  ["2001::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  blockedV6.addSubnet(addr, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = address.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    const v4 = mapped?.[1];
    if (v4) return isPublicAddress(v4);
    return !blockedV6.check(address, "ipv6") && !blocked.check(address, "ipv6");
  }
  return !blocked.check(address, "ipv4");
}

export class UnsafeAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeAddressError";
  }
}

/** Every address the host resolves to must be public (checked when a webhook is created). */
export async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = net.isIP(host)
    ? [{ address: host }]
    : await dns.promises.lookup(host, { all: true }).catch(() => {
        throw new UnsafeAddressError(`${hostname} does not resolve`);
      });
  for (const { address } of addresses) {
    if (!isPublicAddress(address))
      throw new UnsafeAddressError(`${hostname} resolves to a private or reserved address`);
  }
}

/** This machine's loopback (127.0.0.0/8, ::1, and 127.x in its IPv4-mapped form). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, "");
  return a === "::1" || (net.isIPv4(a) && a.startsWith("127."));
}

/**
 * A `lookup` for http(s).request that refuses private addresses at connection time, so a DNS
 * change after creation cannot point deliveries at the internal network. With `allowLoopback`
 * (sandbox: receivers on the developer's own machine), loopback is allowed and nothing else private.
 */
export function guardedLookup(options: { allowLoopback: boolean }): net.LookupFunction {
  const allowed = (address: string) =>
    isPublicAddress(address) || (options.allowLoopback && isLoopbackAddress(address));
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const bad = list.find((a) => !allowed(a.address));
      const [first] = list;
      if (bad || !first)
        return callback(new UnsafeAddressError(`${hostname} resolves to a private or reserved address`), "", 0);
      if ((lookupOptions as dns.LookupOptions).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

export const publicOnlyLookup: net.LookupFunction = guardedLookup({ allowLoopback: false });
