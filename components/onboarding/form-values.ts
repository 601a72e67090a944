import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import { pipe, transform, type ZodMiniType } from "zod/mini";

import { displayPhone } from "@/lib/i18n/display";
import type { Loose, LooseJson } from "@/lib/loose-json";

// What a wizard step's form holds and how it is checked, apart from the form component (form-step.tsx)
// so that it is tested without the browser's modules.

/** Empty inputs are "not given": '' becomes undefined before validation and before saving. */
export function stripEmpty(value: unknown): unknown {
  if (value === "" || value === null) return undefined;
  if (Array.isArray(value)) return value.map(stripEmpty);
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, stripEmpty(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

/**
 * Form values from the session: nulls become empty inputs; a US phone number stored in E.164
 * (+14155550123) is shown the way the field's hint asks for it, (415) 555-0123.
 */
export function toFormValues(value: unknown): Loose {
  if (value === null || value === undefined) return "";
  if (typeof value === "string" && /^\+1\d{10}$/.test(value)) return displayPhone(value);
  if (Array.isArray(value)) return value.map(toFormValues);
  if (typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toFormValues(v)]));
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === "object" && !Array.isArray(v);
const getAt = (value: unknown, path: string[]) =>
  path.reduce<unknown>(
    (acc, key) => (isPlainObject(acc) || Array.isArray(acc) ? (acc as LooseJson)[key] : undefined),
    value,
  );
function setAt(value: Record<string, unknown>, path: string[], leaf: unknown) {
  let node: LooseJson = value as LooseJson;
  path.slice(0, -1).forEach((key) => {
    if (!isPlainObject(node[key]) && !Array.isArray(node[key])) node[key] = {};
    node = node[key];
  });
  const last = path.at(-1);
  if (last !== undefined) node[last] = leaf;
}
/** The paths of the errors react-hook-form would show (a node with a `type` is one error). */
function errorPaths(errors: unknown, path: string[] = []): string[][] {
  if (!isPlainObject(errors)) return [];
  if (typeof errors.type === "string") return [path];
  return Object.entries(errors).flatMap(([key, child]) =>
    key === "root" || key === "ref" ? [] : errorPaths(child, [...path, key]),
  );
}

/**
 * The step's zod schema on the values with empty inputs removed, with one difference: a group the
 * form shows field by field (an address, the main contact, an owner) that is left entirely empty is
 * validated as an empty group, so each of its required fields is marked, not the group as a whole
 * (which has no input to mark or to focus).
 */
export function groupAwareResolver<T extends FieldValues = LooseJson>(schema: ZodMiniType): Resolver<T> {
  return async (values, context, options) => {
    const stripped = (stripEmpty(values) ?? {}) as Record<string, unknown>;
    const filled = structuredClone(stripped);
    for (let round = 0; ; round++) {
      // The form's values are T; zod sees the copy with the empty groups filled.
      const resolve = zodResolver(
        pipe(
          transform((_: FieldValues): unknown => structuredClone(filled)),
          schema,
        ),
      ) as Resolver<T>;
      const result = await resolve(values, context, options);
      const paths = errorPaths(result.errors);
      const groups = paths.filter(
        (p) => p.length > 0 && getAt(filled, p) === undefined && isPlainObject(getAt(values, p)),
      );
      if (groups.length === 0 || round === 3) {
        // Nothing given is "required", whatever zod calls it (an empty choice is an invalid enum value to zod).
        for (const p of paths)
          if (getAt(filled, p) === undefined) (getAt(result.errors, p) as { type: string }).type = "required";
        return result;
      }
      for (const p of groups) setAt(filled, p, {});
    }
  };
}
