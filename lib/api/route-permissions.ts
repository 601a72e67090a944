import type { Permission, Resource } from "../auth/permissions";

// Which permission each `/v1` operation needs (docs/reference.md section 23), from its path's first
// segments: GET reads, anything else writes, unless named below. A route whose path has no rule
// answers `undefined`, and the test that walks every route fails, so a new route needs a line here.

/** Operations every credential that reaches them may use (the sign-in, the routing directory, the reference). */
const open = new Set(["/v1/auth/token", "/v1/routing_numbers/:routing_number", "/v1/openapi.json"]);

/** Segments after /v1/ → resource, longest match first. */
const prefixes: [string, Resource][] = [
  ["account/custom_domain", "account"],
  ["account_sessions", "merchants"],
  ["account", "account"],
  ["audit_logs", "reports"],
  ["balance_transactions", "payouts"],
  ["balance", "payouts"],
  ["charges", "payments"],
  ["customers", "payments"],
  ["disputes", "disputes"],
  ["events", "webhooks"],
  ["fees", "merchants"],
  ["invoice", "payments"],
  ["manual", "payments"],
  ["scan_to_pay", "payments"],
  ["terminal", "payments"],
  ["files", "files"],
  ["merchants/:merchant_id/reserves", "payouts"],
  ["merchants/:merchant_id/payout_card", "payouts"],
  ["merchants", "merchants"],
  ["onboarding_links", "onboarding_links"],
  ["payment_links", "payments"],
  ["payment_methods", "payments"],
  ["payment_requests", "payments"],
  ["payouts", "payouts"],
  ["refunds", "refunds"],
  ["reports", "reports"],
  ["residuals", "reports"],
  ["risk_alerts", "merchants"],
  ["settlements", "payouts"],
  ["statements", "reports"],
  ["subscriptions", "payments"],
  ["test_helpers/account", "account"],
  ["test_helpers/merchants", "merchants"],
  ["test_helpers/outbox", "webhooks"],
  ["test_helpers/payouts", "payouts"],
  ["test_helpers/residuals", "reports"],
  ["test_helpers/risk", "merchants"],
  ["test_helpers/settlement", "payouts"],
  ["test_helpers/statements", "reports"],
  ["test_helpers/terminals", "payments"],
  ["test_helpers/test_clocks", "payments"],
  ["tokens", "payments"],
  ["webhooks", "webhooks"],
];
const byPrefix = prefixes.toSorted(([a], [b]) => b.length - a.length);

/** POSTs that only read: a calculation, a report asked for, a download, a price quote. */
const readingPosts = [
  /^\/v1\/fees\/preview$/,
  /^\/v1\/reports$/,
  /^\/v1\/reports\/:[a-z_]+\/download$/,
  /^\/v1\/residuals\/:[a-z_]+\/download$/,
  /^\/v1\/statements\/:[A-Za-z_]+\/download\/:[A-Za-z_]+$/,
  /^\/v1\/payouts\/instant_quote$/,
  /^\/v1\/payment_requests\/:[a-z_]+\/stream$/,
];

/**
 * The permission an operation needs: `"open"` for those anyone who reaches them may use, undefined
 * for a path with no rule. `template` is the route as registered (`/v1/merchants/:merchant_id`).
 */
export function routePermission(method: string, template: string): Permission | "open" | undefined {
  // Asked on every request: each (method, route) is worked out once.
  const key = `${method} ${template}`;
  if (known.has(key)) return known.get(key);
  const found = permissionOf(method, template);
  if (known.size < 10_000) known.set(key, found);
  return found;
}

const known = new Map<string, Permission | "open" | undefined>();

function permissionOf(method: string, template: string): Permission | "open" | undefined {
  const path = template.replace(/\{([^}]+)\}/g, ":$1");
  if (open.has(path)) return "open";
  if (!path.startsWith("/v1/")) return undefined;
  const rest = path.slice(4);
  const found = byPrefix.find(([prefix]) => rest === prefix || rest.startsWith(`${prefix}/`));
  if (!found) return undefined;
  const reads = method === "GET" || method === "HEAD" || (method === "POST" && readingPosts.some((r) => r.test(path)));
  return { resource: found[1], access: reads ? "read" : "write" };
}
