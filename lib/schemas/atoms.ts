import { z } from "zod";

// Field atoms shared by the API, the wizard's forms and OpenAPI. Messages here are for API
// clients; the wizard translates by error code and path.

/** A decimal amount as a string, e.g. "0.30". */
export const decimalString = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,4})?$/, 'must be a non-negative decimal number as a string, e.g. "0.30"');

/** A percentage 0-100 and an e-mail address are the onboarding information's rules too (one definition). */
export { email, percentString } from "./application";

/** CSS colors are validated by pattern so that nothing can be injected into a stylesheet. */
export const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex color like #1A73E8");

export const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || u.protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

export const hostname = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "must be a lower-case host name like onboarding.example.com",
  );
