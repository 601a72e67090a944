import { z } from "zod";

// Field atoms shared by the API, the wizard's forms and OpenAPI. Messages here are for API
// clients; the wizard translates by error code and path.

/** A decimal amount as a string, e.g. "0.30". */
export const decimalString = z.string().regex(/^\d{1,7}(\.\d{1,4})?$/, 'must be a non-negative decimal number as a string, e.g. "0.30"');

/** A percentage 0-100 as a string without a percent sign, e.g. "2.9". */
export const percentString = z
  .string()
  .regex(/^\d{1,3}(\.\d{1,4})?$/, "must be a number from 0 to 100 as a string, without a percent sign")
  .refine((v) => Number(v) <= 100, "must be a number from 0 to 100 as a string, without a percent sign");

/** CSS colours are validated by pattern so that nothing can be injected into a stylesheet. */
export const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour like #1A73E8");

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
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a lower-case host name like onboarding.example.com");

export const email = z.string().max(254).pipe(z.email("must be an e-mail address"));
