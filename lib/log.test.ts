import { DrizzleQueryError } from "drizzle-orm/errors";
import pino from "pino";
import { describe, expect, test } from "vitest";

import { logOptions, redactDeep, safeError } from "./log";

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

describe("sensitive keys in logs, at any depth", () => {
  test("the tokenizer's body (number, cvc), bank account numbers and secrets are redacted however deep", () => {
    const line = {
      body: { card: { number: "4242424242424242", cvc: "123", exp_month: 12 } },
      deep: { a: { b: { c: [{ bank_account: { account_number: "000123456789", routing_number: "021000021" } }] } } },
      headers: { Authorization: "Basic c2VjcmV0", cookie: "onboarding_session=abc" },
      owner: { ssn: "123456789" },
      kept: { last4: "4242", receipt_number: "20261124-ABCD" },
    };
    const text = JSON.stringify(redactDeep(line));
    for (const secret of [
      "4242424242424242",
      '"123"',
      "000123456789",
      "c2VjcmV0",
      "onboarding_session=abc",
      "123456789",
    ])
      expect(text).not.toContain(secret);
    expect(redactDeep(line)).toMatchObject({
      body: { card: { number: "[redacted]", cvc: "[redacted]", exp_month: 12 } },
      deep: { a: { b: { c: [{ bank_account: { account_number: "[redacted]", routing_number: "021000021" } }] } } },
      kept: { last4: "4242", receipt_number: "20261124-ABCD" },
    });
    // The input is not changed.
    expect(line.body.card.number).toBe("4242424242424242");
  });

  test("the application's logger applies it to every line", () => {
    const written: string[] = [];
    const logger = pino({ ...logOptions, level: "info" }, { write: (line: string) => written.push(line) });
    logger.info({ request: { body: { card: { number: "4000056655665556", cvc: "999" } } } }, "tokenize");
    logger.warn({ err: new Error("boom"), payload: [{ account_number: "000222222227" }] }, "ach");
    const text = written.join("");
    expect(text).toContain('"msg":"tokenize"');
    expect(text).toContain('"message":"boom"');
    for (const secret of ["4000056655665556", '"999"', "000222222227"]) expect(text).not.toContain(secret);
  });
});
