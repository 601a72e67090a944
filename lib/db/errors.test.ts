import { expect, test } from "vitest";

import { isRetryableConflict, retryOnConflict } from "./errors";

const deadlock = () =>
  Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("deadlock detected"), { code: "40P01" }) });

test("a deadlock or serialization failure, however wrapped, is retryable; a unique violation is not", () => {
  expect(isRetryableConflict(deadlock())).toBe(true);
  expect(isRetryableConflict(Object.assign(new Error("x"), { code: "40001" }))).toBe(true);
  expect(isRetryableConflict(Object.assign(new Error("x"), { code: "23505" }))).toBe(false);
});

test("retryOnConflict runs a transaction again after a lost race, a bounded number of times", async () => {
  let runs = 0;
  await expect(
    retryOnConflict(async () => {
      runs++;
      if (runs < 3) throw deadlock();
      return "done";
    }),
  ).resolves.toBe("done");
  expect(runs).toBe(3);
  runs = 0;
  await expect(
    retryOnConflict(async () => {
      runs++;
      throw deadlock();
    }, 4),
  ).rejects.toThrow("Failed query");
  expect(runs).toBe(4);
  runs = 0;
  await expect(
    retryOnConflict(async () => {
      runs++;
      throw new Error("other");
    }),
  ).rejects.toThrow("other");
  expect(runs).toBe(1);
});
