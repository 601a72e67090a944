import { createTranslator } from "next-intl";
import { describe, expect, test } from "vitest";

import { messageOr } from "./dynamic";

describe("messages with keys built at run time", () => {
  const t = createTranslator({
    locale: "en",
    messages: { underwriting: { document_required: "Upload {field}" } },
  });
  test("a key the catalogue has is translated with its values; one it lacks is null", () => {
    expect(messageOr(t as never, "underwriting.document_required", { field: "an ID" })).toBe("Upload an ID");
    expect(messageOr(t as never, "underwriting.no_such_code")).toBeNull();
  });
});
