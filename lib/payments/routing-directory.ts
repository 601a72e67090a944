// The banks US routing numbers name (docs/reference.md section 13), from the Federal Reserve's
// E-Payments Routing Directory (FedACH participants), shipped as data in ./routing-directory-data.ts
// and refreshed with `npm run routing:update -- <FedACHdir.txt>` (scripts/routing-directory.ts). A
// number the directory does not know simply has no name: it may still be valid (a new one).

export type RoutingEntry = { routingNumber: string; bankName: string; city: string; state: string };

/** Words kept in capitals as banks write them (other words are capitalized: "BANK OF AMERICA" → "Bank of America"). */
const UPPER = new Set([
  "NA",
  "N.A.",
  "FSB",
  "SSB",
  "USA",
  "US",
  "TD",
  "PNC",
  "BMO",
  "HSBC",
  "BNY",
  "FCU",
  "CU",
  "NY",
  "BNC",
]);
const LOWER = new Set(["OF", "AND", "THE", "FOR", "IN", "AT", "ON", "DE", "DEL", "Y"]);
const SPECIAL: Record<string, string> = { JPMORGAN: "JPMorgan", CITIBANK: "Citibank", MCCOY: "McCoy" };

/** A directory name ("WELLS FARGO BANK, NA") as people read it ("Wells Fargo Bank, NA"). */
export function bankDisplayName(raw: string): string {
  return raw
    .trim()
    .replace(/\s+/g, " ")
    .split(" ")
    .map((word, i) => {
      const bare = word.replace(/[^A-Z0-9.&']/gi, "").toUpperCase();
      const key = bare.replace(/\.$/, bare.length > 3 ? "" : ".");
      if (UPPER.has(bare) || UPPER.has(key)) return word.toUpperCase();
      if (SPECIAL[bare]) return word.toUpperCase().replace(bare, SPECIAL[bare]);
      if (i > 0 && LOWER.has(bare)) return word.toLowerCase();
      // No vowel, or digits: an abbreviation or a code ("BK", "TR", "1ST" stays "1st").
      if (/^\d/.test(bare)) return word.toLowerCase();
      if (!/[AEIOUY]/.test(bare)) return word.toUpperCase();
      return word
        .toLowerCase()
        .replace(/(^|[-/&('.])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase())
        .replace(/^(mc)([a-z])/, (_, mc: string, c: string) => "Mc" + c.toUpperCase());
    })
    .join(" ");
}

/**
 * The Fed's fixed-width FedACH directory (one institution per line: routing number at 1-9, record
 * type at 20, customer name at 36-71, city at 108-127, state at 128-129) as entries, one per routing
 * number, names as people read them.
 */
export function parseFedAchDirectory(text: string): RoutingEntry[] {
  const out = new Map<string, RoutingEntry>();
  for (const line of text.split(/\r?\n/)) {
    if (line.length < 129 || !/^\d{9}/.test(line)) continue;
    const routingNumber = line.slice(0, 9);
    out.set(routingNumber, {
      routingNumber,
      bankName: bankDisplayName(line.slice(35, 71)),
      city: bankDisplayName(line.slice(107, 127)),
      state: line.slice(127, 129).trim(),
    });
  }
  return [...out.values()].sort((a, b) => a.routingNumber.localeCompare(b.routingNumber));
}

/** The data file's text: one `routing\tname\tcity\tstate` line per entry. */
export const directoryLines = (entries: RoutingEntry[]) =>
  entries.map((e) => [e.routingNumber, e.bankName, e.city, e.state].join("\t")).join("\n");

type Directory = { version: string; byNumber: Map<string, RoutingEntry> };
let directory: Promise<Directory> | undefined;

/**
 * The shipped directory, read on first use: its data module (900 KB of text) is compiled then, not
 * by every process that starts the API (measured: about 0.3 s of each start and of each test file's
 * imports).
 */
function loadDirectory(): Promise<Directory> {
  directory ??= import("./routing-directory-data").then(({ directoryText, directoryVersion }) => {
    const byNumber = new Map<string, RoutingEntry>();
    for (const line of directoryText.split("\n")) {
      const [n = "", bankName = "", city = "", state = ""] = line.split("\t");
      byNumber.set(n, { routingNumber: n, bankName, city, state });
    }
    return { version: directoryVersion, byNumber };
  });
  return directory;
}

/** The directory's entry for a routing number (null when it has none). */
export async function routingEntry(routingNumber: string): Promise<RoutingEntry | null> {
  return (await loadDirectory()).byNumber.get(routingNumber) ?? null;
}

/** The bank a routing number names, or null. */
export const bankNameOf = async (routingNumber: string): Promise<string | null> =>
  (await routingEntry(routingNumber))?.bankName ?? null;

/** Which edition of the directory is shipped (its newest change date). */
export const routingDirectoryVersion = async () => (await loadDirectory()).version;
