import { invalid } from "../errors";

/** The most keys an object's metadata holds (customers, subscriptions, payment links). */
export const MAX_METADATA_KEYS = 20;

/**
 * An object's metadata after an update (docs/reference.md section 21): the keys given replace
 * theirs, a key given an empty string is removed; 400 on `metadata` past 20 keys.
 */
export function mergeMetadata(
  current: Record<string, string>,
  changes: Record<string, string> | undefined,
): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === "") delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > MAX_METADATA_KEYS)
    throw invalid("metadata", `metadata must have at most ${MAX_METADATA_KEYS} keys`);
  return merged;
}
