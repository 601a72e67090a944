import { describe, expect, test } from "vitest";

import { abaChecksumValid } from "../schemas/aba";
import { bankDisplayName, bankNameOf, parseFedAchDirectory, routingEntry } from "./routing-directory";
import { directoryText } from "./routing-directory-data";

describe("the routing directory", () => {
  test("names the banks of well-known routing numbers, and none for a number it does not know", async () => {
    expect(await bankNameOf("021000021")).toBe("JPMorgan Chase");
    expect(await bankNameOf("121000248")).toBe("Wells Fargo Bank, NA");
    expect(await bankNameOf("026009593")).toBe("Bank of America N.A.");
    expect(await routingEntry("011000028")).toEqual({
      routingNumber: "011000028",
      bankName: "State Street Bank and Trust Company",
      city: "N. Quincy",
      state: "MA",
    });
    expect(await bankNameOf("110000000")).toBeNull();
    expect(await bankNameOf("")).toBeNull();
  });

  test("every shipped routing number passes the ABA checksum, once, with a name", () => {
    const lines = directoryText.split("\n");
    expect(lines.length).toBeGreaterThan(15_000);
    const numbers = new Set<string>();
    for (const line of lines) {
      const [n = "", name = "", , state = ""] = line.split("\t");
      expect(abaChecksumValid(n), line).toBe(true);
      expect(name.length, line).toBeGreaterThan(1);
      expect(state, line).toMatch(/^([A-Z]{2})?$/); // a foreign bank (FedGlobal) has no state
      numbers.add(n);
    }
    expect(numbers.size).toBe(lines.length);
  });

  test("reads the Fed's fixed-width lines, the last line of a number winning", () => {
    const line = (routing: string, name: string) =>
      `${routing}O0110000151072811000000000${name.padEnd(36)}${"JAB2NW".padEnd(36)}${"N. QUINCY".padEnd(20)}MA021710000617664240011     `;
    expect(
      parseFedAchDirectory(
        [line("011000028", "OLD NAME"), "junk", line("011000028", "STATE STREET BANK AND TRUST COMPANY")].join("\r\n"),
      ),
    ).toEqual([
      { routingNumber: "011000028", bankName: "State Street Bank and Trust Company", city: "N. Quincy", state: "MA" },
    ]);
  });

  test("directory names read as people write them", () => {
    expect(bankDisplayName("WELLS FARGO BANK, NA  ")).toBe("Wells Fargo Bank, NA");
    expect(bankDisplayName("JPMORGAN CHASE BANK, N.A.")).toBe("JPMorgan Chase Bank, N.A.");
    expect(bankDisplayName("THE FIRST NATIONAL BANK OF IPSWICH")).toBe("The First National Bank of Ipswich");
    expect(bankDisplayName("BOSTON PRIVATE BK + TR CO")).toBe("Boston Private BK + TR Co");
    expect(bankDisplayName("FIRST NAT BANK OF SUFFIELD")).toBe("First Nat Bank of Suffield");
    expect(bankDisplayName("BANKERS' BANK NORTHEAST")).toBe("Bankers' Bank Northeast");
    expect(bankDisplayName("1ST SOURCE BANK")).toBe("1st Source Bank");
    expect(bankDisplayName("TD BANK USA, NA")).toBe("TD Bank USA, NA");
    expect(bankDisplayName("COOP DE AHORRO Y CREDITO")).toBe("Coop de Ahorro y Credito");
    expect(bankDisplayName("WINSTON-SALEM FCU")).toBe("Winston-Salem FCU");
  });
});
