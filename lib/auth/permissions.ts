import { AppError } from "../errors";

// What each member of an ISV's team may do (docs/reference.md section 23): one table, asked by every
// `/v1` operation a dashboard token reaches, every dashboard page and every server action.

export const roles = ["owner", "admin", "developer", "support", "view_only"] as const;
export type Role = (typeof roles)[number];

/** What a restricted API key may touch: the resources a key can be given, each `none`, `read` or `write`. */
export const keyResources = [
  "account",
  "merchants",
  "onboarding_links",
  "payments",
  "refunds",
  "payouts",
  "disputes",
  "webhooks",
  "reports",
  "files",
] as const;

/**
 * What a permission is about: a key's resources, and `api_keys`, `team` and `payout_account`, the
 * dashboard's alone (a key never manages keys or people).
 */
export const resources = [...keyResources, "api_keys", "team", "payout_account"] as const;
export type Resource = (typeof resources)[number];

export const accessLevels = ["none", "read", "write"] as const;
export type Access = (typeof accessLevels)[number];

export type KeyResource = (typeof keyResources)[number];
export type KeyPermissions = Partial<Record<KeyResource, Access>>;

/** Whether a restricted key's permissions allow it (a resource it was not given: none). */
export const keyMay = (permissions: KeyPermissions, wanted: Permission) =>
  (keyResources as readonly string[]).includes(wanted.resource) &&
  covers(permissions[wanted.resource as KeyResource] ?? "none", wanted.access);

/** A permission asked for: a resource, and reading or writing it. */
export type Permission = { resource: Resource; access: Exclude<Access, "none"> };

const rank: Record<Access, number> = { none: 0, read: 1, write: 2 };

const all = (access: Access): Record<Resource, Access> =>
  Object.fromEntries(resources.map((r) => [r, access])) as Record<Resource, Access>;

/**
 * The table. Owners do everything; admins everything but the team and the ISV's own payout bank
 * account; developers keys, webhooks and reading; support merchants, payments, refunds (up to the
 * owner's limit) and disputes; view-only reads what is not a secret.
 */
export const roleGrants: Record<Role, Record<Resource, Access>> = {
  owner: all("write"),
  admin: { ...all("write"), team: "read", payout_account: "read" },
  developer: { ...all("read"), webhooks: "write", api_keys: "write" },
  support: {
    ...all("read"),
    merchants: "write",
    onboarding_links: "write",
    payments: "write",
    refunds: "write",
    disputes: "write",
    files: "write",
    webhooks: "none",
    api_keys: "none",
  },
  view_only: { ...all("read"), api_keys: "none" },
};

/** Whether a grant of `held` covers `wanted`. */
export const covers = (held: Access, wanted: Access) => rank[held] >= rank[wanted];

/** Whether a role may do it. */
export const roleMay = (role: Role, permission: Permission) =>
  covers(roleGrants[role][permission.resource], permission.access);

/** The roles that may do it, most restricted first (for the refusal's message). */
export const rolesFor = (permission: Permission): Role[] =>
  [...roles].reverse().filter((role) => roleMay(role, permission));

export const isRole = (value: unknown): value is Role =>
  typeof value === "string" && (roles as readonly string[]).includes(value);

/** "payments:write" → the permission; the dashboard's actions name theirs this way. */
export function permission(spec: `${Resource}:${"read" | "write"}`): Permission {
  const [resource, access] = spec.split(":") as [Resource, "read" | "write"];
  return { resource, access };
}

/** Who may change whose role: only owners manage the team, and nobody makes a member more than they are. */
export const mayManageTeam = (role: Role) => roleMay(role, { resource: "team", access: "write" });

/** The refusal of an operation a member's role does not allow: 403 `permission_denied`, naming the roles that may. */
export function permissionDenied(role: string, needed: Permission) {
  const may = rolesFor(needed).join(", ");
  return new AppError(
    "permission_denied",
    `Your role (${role}) cannot ${needed.access} ${needed.resource.replaceAll("_", " ")}: this needs one of ${may}`,
  );
}

/** The refusal of an operation a restricted key was not given: 403 `permission_denied`, naming what it needs. */
export function keyRefusal(needed: Permission | undefined) {
  return new AppError(
    "permission_denied",
    needed
      ? `This restricted key cannot ${needed.access} ${needed.resource.replaceAll("_", " ")}: it needs ${needed.resource}: ${needed.access}`
      : "A restricted key cannot use this operation",
  );
}
