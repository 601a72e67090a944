import { describe, expect, test } from "vitest";

import { explicitSchemas } from "./openapi-explicit";

describe("the OpenAPI document's schemas made explicit", () => {
  test("a composition states the union of its members' types, through references, and an empty additionalProperties is true", () => {
    const doc = {
      components: {
        schemas: {
          Owner: { type: "object", properties: { name: { type: "string" } } },
          Masked: {
            anyOf: [
              { type: "string", pattern: "^\\d{9}$" },
              { type: "string", pattern: "^\\*+\\d{4}$" },
            ],
          },
          Fee: {
            anyOf: [
              { type: "object", required: ["amount"] },
              { type: "object", required: ["percent"] },
            ],
          },
          Holder: {
            type: "object",
            properties: {
              owner_two: { allOf: [{ $ref: "#/components/schemas/Owner" }, { type: ["object", "null"] }] },
              either: { oneOf: [{ type: "integer" }, { type: "string" }] },
              unknown: { anyOf: [{ type: "string" }, { not: { type: "string" } }] },
              data: { type: "object", additionalProperties: {} },
              kept: { type: "object", additionalProperties: { type: "string" } },
            },
          },
        },
      },
    };
    const out = explicitSchemas(structuredClone(doc));
    const s = out.components.schemas as Record<string, any>;
    expect(s.Masked.type).toBe("string");
    expect(s.Masked.anyOf).toEqual(doc.components.schemas.Masked.anyOf);
    expect(s.Fee.type).toBe("object");
    // A nullable reference, as meant (the generator's allOf refused null when read strictly).
    expect(s.Holder.properties.owner_two).toEqual({
      anyOf: [{ $ref: "#/components/schemas/Owner" }, { type: "null" }],
      type: ["null", "object"],
    });
    expect(s.Holder.properties.either.type).toEqual(["integer", "string"]);
    // A member whose type cannot be told: no type is claimed.
    expect(s.Holder.properties.unknown.type).toBeUndefined();
    expect(s.Holder.properties.data.additionalProperties).toBe(true);
    expect(s.Holder.properties.kept.additionalProperties).toEqual({ type: "string" });
    // A schema that already says its type is left as it is.
    expect(s.Owner).toEqual(doc.components.schemas.Owner);
  });

  test("a reference cycle does not loop, and claims no type", () => {
    const doc = { components: { schemas: { A: { anyOf: [{ $ref: "#/components/schemas/A" }, { type: "null" }] } } } };
    expect(explicitSchemas(structuredClone(doc))).toEqual(doc);
  });
});
