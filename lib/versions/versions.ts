// API versions by date (docs/reference.md section 22, docs/changelog.md): a request may name its
// version in `Onb-Version`; without it, the caller's account's pinned version applies (an account is
// pinned to the latest version when it is made); every answer says the version it was written in.
// The application always works in the latest shapes; each change that would break an integration
// written against an older version is listed here with what turns a latest-version answer back into
// the older shape (and, when a request body changed, an older request into the latest), applied to
// every object of its `object` type wherever it appears (a resource, a list's items, an event's
// `data.object`).

/** The versions, oldest first. */
export const apiVersions = ["2026-11-27"] as const;
export type ApiVersion = string;
export const LATEST_API_VERSION: ApiVersion = apiVersions[apiVersions.length - 1] ?? apiVersions[0];
/** The version an account made before versions existed is pinned to: the first. */
export const FIRST_API_VERSION: ApiVersion = apiVersions[0];
export const API_VERSION_HEADER = "Onb-Version";

export type VersionChange = {
  /** The version that made the change: callers on an earlier version see the old shape. */
  version: ApiVersion;
  /** The `object` type of the resources it changed ("charge", "payout"...). */
  object: string;
  description: string;
  /** A latest-shape object (a copy) → its shape before this change. */
  toOlder: (object: Record<string, unknown>) => Record<string, unknown>;
  /** An older request body → the latest's (when the change altered what is sent). */
  requestToLatest?: (body: Record<string, unknown>) => Record<string, unknown>;
};

/** Every change since the first version, oldest first (none yet: the first version is the only one). */
export const versionChanges: VersionChange[] = [];

export type VersionSet = { versions: readonly ApiVersion[]; changes: readonly VersionChange[] };
let active: VersionSet = { versions: apiVersions, changes: versionChanges };
/** The versions this process serves: the product's (tests of the mechanism bring a made-up history). */
export const currentVersions = (): VersionSet => active;
/** Tests only: serve a made-up history of versions and changes (the mechanism's tests). */
export function replaceVersionsForTests(set: VersionSet) {
  active = set;
}

export const isApiVersion = (value: string, set: VersionSet = active) => set.versions.includes(value);

/** The changes a caller on `version` must not see, newest first (the order to undo them in). */
export function changesAfter(version: ApiVersion, set: VersionSet = active): VersionChange[] {
  return set.changes.filter((c) => c.version > version).reverse();
}

/**
 * A latest-shape answer in `version`'s shapes: every object of a changed type, at any depth, turned
 * back through each change made after `version` (newest first). The input is not modified.
 */
export function toVersion(json: unknown, version: ApiVersion, set: VersionSet = active): unknown {
  const changes = changesAfter(version, set);
  if (changes.length === 0) return json;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    let object: Record<string, unknown> = Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v)]),
    );
    for (const change of changes) if (object.object === change.object) object = change.toOlder(object);
    return object;
  };
  return walk(json);
}

/** An older request body in the latest shape (each change's request transform, oldest first). */
export function requestToLatest(
  body: Record<string, unknown>,
  version: ApiVersion,
  set: VersionSet = active,
): Record<string, unknown> {
  let out = body;
  for (const change of [...changesAfter(version, set)].reverse())
    if (change.requestToLatest) out = change.requestToLatest(out);
  return out;
}
