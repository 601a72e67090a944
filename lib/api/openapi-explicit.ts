// The OpenAPI document's schemas, made explicit for strict readers (the /docs page's own validator,
// Scalar's, refused six objects): a composition (anyOf, oneOf, allOf) says its `type` too, the union
// of its members' types (through references); an open object's `additionalProperties: {}` is `true`;
// and a nullable reference is `anyOf: [{ $ref }, { type: "null" }]`. None changes what is valid,
// except that the nullable reference now accepts null, as the API does.

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const compositions = ["anyOf", "oneOf", "allOf"] as const;

/** The types a schema allows, when it says them (itself, through its members, or what it refers to). */
function typesOf(schema: unknown, components: Record<string, unknown>, seen = new Set<string>()): Set<string> | null {
  if (!isNode(schema)) return null;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    if (seen.has(name)) return null;
    return typesOf(components[name], components, new Set([...seen, name]));
  }
  if (typeof schema.type === "string") return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  for (const key of compositions) {
    const members = schema[key];
    if (!Array.isArray(members) || members.length === 0) continue;
    const all = new Set<string>();
    for (const member of members) {
      const types = typesOf(member, components, seen);
      if (!types) return null;
      for (const type of types) all.add(type);
    }
    return all;
  }
  return null;
}

/** The generator's nullable reference: `allOf: [{ $ref }, { type: [..., "null"] }]` (strictly read, it refuses null). */
function isNullableReference(all: unknown): all is [Node, Node] {
  return (
    Array.isArray(all) &&
    all.length === 2 &&
    isNode(all[0]) &&
    typeof all[0].$ref === "string" &&
    isNode(all[1]) &&
    Object.keys(all[1]).length === 1 &&
    Array.isArray(all[1].type) &&
    all[1].type.includes("null")
  );
}

/** Makes every schema in `doc` explicit as said above, in place; answers `doc`. */
export function explicitSchemas<T extends object>(doc: T): T {
  const components = (((doc as Node).components as Node | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    for (const child of Object.values(value)) visit(child);
    if (isNullableReference(value.allOf)) {
      value.anyOf = [value.allOf[0], { type: "null" }];
      delete value.allOf;
    }
    if (isNode(value.additionalProperties) && Object.keys(value.additionalProperties).length === 0)
      value.additionalProperties = true;
    if (value.type === undefined && compositions.some((key) => Array.isArray(value[key]))) {
      const types = typesOf(value, components);
      if (types && types.size > 0) value.type = types.size === 1 ? [...types][0] : [...types].sort();
    }
  };
  visit(doc);
  return doc;
}
