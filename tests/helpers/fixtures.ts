import example from "@/lib/schemas/examples/merchant-application.json" with { type: "json" };

/** A complete, valid application (shared/examples), deep-copied so tests can change it freely. */
export function application(): any {
  return structuredClone(example);
}

/** A valid 15-digit IMEI (Luhn check digit) that no other test uses. */
export function newImei(): string {
  const body = Array.from({ length: 14 }, (_, i) =>
    i === 0 ? 3 + Math.floor(Math.random() * 6) : Math.floor(Math.random() * 10),
  );
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = body[13 - i]!;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body.join("") + String((10 - (sum % 10)) % 10);
}

/** A home session that signed in just now: what a bank account or contact change asks (the step-up). */
export const freshHomeSession = () => ({ id: "hs_test_fresh", createdAt: new Date(), via: "email" as const });
