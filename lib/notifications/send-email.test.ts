import { expect, test } from "vitest";

import { fromLine } from "./send-email";

// The From line (docs/reference.md section 12): the deployment's address under the sender's name.
test.each([
  ["onboarding@pay.example", "Golden Gate Noodles", { name: "Golden Gate Noodles", address: "onboarding@pay.example" }],
  ["Payments <no-reply@pay.example>", "Mail POS", { name: "Mail POS", address: "no-reply@pay.example" }],
  ["Payments <no-reply@pay.example>", null, "Payments <no-reply@pay.example>"],
  ["no-reply@pay.example", undefined, "no-reply@pay.example"],
])("%s as %s → %j", (smtpFrom, name, expected) => expect(fromLine(smtpFrom, name)).toEqual(expected));
