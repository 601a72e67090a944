import { env } from "../env";

/**
 * Strict-Transport-Security in production (docs/reference.md section 1): browsers that have seen the
 * service over https never try it over http again for a year. Not `includeSubDomains`: an ISV's custom
 * domain is the ISV's, and its other subdomains are not ours to decide for. Sandbox and a developer's
 * http://localhost send none.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";
export const sendsHsts = () => env.APP_ENV === "production";
