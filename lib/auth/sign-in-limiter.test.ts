import { randomUUID } from "node:crypto";

import { expect, test } from "vitest";

import { checkAttempts } from "./sign-in-limiter";

// The second step's codes (docs/reference.md section 23): 10 per member and address, and 20 per
// member across addresses, in 5 minutes.

const refused = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (error: { code?: string }) => error.code ?? "thrown",
  );

test("a member's codes: 10 from one address, 20 from any addresses, then 429", async () => {
  const member = `usr_${randomUUID()}`;
  for (let i = 0; i < 10; i++) expect(await refused(checkAttempts("second-factor", member, "10.0.0.1"))).toBeNull();
  expect(await refused(checkAttempts("second-factor", member, "10.0.0.1"))).toBe("too_many_sign_in_attempts");
  // Other addresses go on until the member's own cap of 20 (the refused 11th counted too).
  for (let i = 0; i < 9; i++) expect(await refused(checkAttempts("second-factor", member, `10.0.1.${i}`))).toBeNull();
  expect(await refused(checkAttempts("second-factor", member, "10.0.2.1"))).toBe("too_many_sign_in_attempts");
  // Another member from those addresses is counted apart.
  expect(await refused(checkAttempts("second-factor", `usr_${randomUUID()}`, "10.0.2.1"))).toBeNull();
});

test("the password's attempts have no cap per e-mail across addresses (nobody elsewhere can lock a user out)", async () => {
  const email = `${randomUUID()}@example.test`;
  for (let i = 0; i < 25; i++) expect(await refused(checkAttempts("sign-in", email, `10.1.${i}.1`))).toBeNull();
});
