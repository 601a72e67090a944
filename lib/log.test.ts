import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, test } from "vitest";

import { safeError } from "./log";

describe("errors in logs", () => {
  test("a failed query's parameters never reach the log: not in params, the message, the stack or the cause", () => {
    const pg = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: "23505",
      detail: "Key (email)=(mei@example.com) already exists.",
    });
    const error = new DrizzleQueryError(
      'insert into "users" ("email", "tin") values ($1, $2)',
      ["mei@example.com", "enc:v1:abcd…6789"],
      pg,
    );
    const logged = JSON.stringify(safeError(error));
    expect(logged).not.toContain("mei@example.com");
    expect(logged).not.toContain("6789");
    expect(logged).toContain("Failed query");
    expect(logged).toContain("23505");
    expect(logged).toContain("users_email_key");
  });
  test("other errors are logged as they are", () => {
    expect(safeError(new Error("boom"))).toMatchObject({ message: "boom", type: "Error" });
  });
});
