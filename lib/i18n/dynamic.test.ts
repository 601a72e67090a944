import { createTranslator } from "next-intl";
import { describe, expect, test } from "vitest";

import { enumLabel, loose, messageOr } from "./dynamic";

describe("messages with keys built at run time", () => {
  const t = createTranslator({
    locale: "en",
    messages: {
      underwriting: { document_required: "Upload {field}" },
      chargeStatus: { SUCCEEDED: "Paid" },
      fields: { address: { city: "City" } },
    },
  });
  test("a key the catalogue has is translated with its values; one it lacks is null", () => {
    expect(messageOr(t, "underwriting.document_required", { field: "an ID" })).toBe("Upload an ID");
    expect(messageOr(t, "underwriting.no_such_code")).toBeNull();
  });
  test("an enumeration's value in words, or as written when the catalogue lacks it", () => {
    expect(enumLabel(t, "chargeStatus", "SUCCEEDED")).toBe("Paid");
    expect(enumLabel(t, "chargeStatus", "ON_THE_MOON")).toBe("ON_THE_MOON");
  });
  test("the loose translator answers has and raw for any key", () => {
    const any = loose(t);
    expect(any.has("fields.address.city")).toBe(true);
    expect(any.has("fields.address.planet")).toBe(false);
    expect(typeof any.raw("fields.address")).toBe("object");
  });
});

describe("the merchant's status history names every event it can show", () => {
  test("each event about a merchant has its words in English and Spanish (none reads 'Event')", async () => {
    const { eventCatalogue } = await import("../events/catalogue");
    const merchantEvents = Object.entries(eventCatalogue)
      .filter(([, e]) => e.resource === "merchant")
      .map(([type]) => type.replace(".", "__"));
    for (const locale of ["en", "es"]) {
      const messages = (await import(`./messages/${locale}.json`)).default as {
        dashboard: { eventNames: Record<string, string> };
      };
      expect(
        merchantEvents.filter((key) => !messages.dashboard.eventNames[key]),
        locale,
      ).toEqual([]);
    }
  });
});
