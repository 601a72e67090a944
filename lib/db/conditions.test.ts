import { eq, gt } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, test } from "vitest";

import { allOf, anyOf } from "./conditions";
import { charges } from "./schema";

const text = (condition: Parameters<PgDialect["sqlToQuery"]>[0]) => {
  const { sql, params } = new PgDialect().sqlToQuery(condition);
  return { sql, params };
};

describe("allOf / anyOf", () => {
  const a = eq(charges.merchantId, "mer_1");
  const b = gt(charges.requestedAmount, 100);

  test("join every condition given, with AND or OR", () => {
    expect(text(allOf(a, b))).toEqual({
      sql: '("charges"."merchant_id" = $1 and "charges"."requested_amount" > $2)',
      params: ["mer_1", 100],
    });
    expect(text(anyOf(a, b))).toEqual({
      sql: '("charges"."merchant_id" = $1 or "charges"."requested_amount" > $2)',
      params: ["mer_1", 100],
    });
  });

  test("leave out the absent ones (an optional filter), never the first", () => {
    expect(text(allOf(a, undefined))).toEqual(text(allOf(a)));
    expect(text(anyOf(a, undefined)).params).toEqual(["mer_1"]);
  });
});
