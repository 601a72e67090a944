"use client";
import { useTranslations } from "next-intl";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

import { Field, type FieldKind } from "@/components/ui/field";
import { messageOr } from "@/lib/i18n/dynamic";
import type { Loose } from "@/lib/loose-json";
import { usStates } from "@/lib/schemas/us-states";

import { usePortal } from "./portal";

function errorAt(errors: unknown, name: string): Loose {
  return name.split(".").reduce<Loose>((acc, part) => (acc ? acc[part] : undefined), errors);
}

/**
 * Renders fields of one form by path, with labels and hints from the message files. Called at the
 * top of a step (it reads hooks); the function it returns is called inside the form's render prop.
 */
export function useFieldRenderer() {
  const t = useTranslations();
  const portal = usePortal();
  return <T extends FieldValues>(form: UseFormReturn<T>, idPrefix = "f") =>
    function render(
      name: string,
      labelKey: string,
      kind: FieldKind,
      options: {
        optional?: boolean;
        hintKey?: string;
        hint?: string;
        options?: { value: string; label: string }[];
        autoComplete?: string;
        label?: string;
      } = {},
    ) {
      const id = `${idPrefix}-${name.replace(/\./g, "-")}`;
      // In the portal only what underwriting asked for is shown, with its reason as the hint.
      if (!portal.shows(name)) return null;
      const reason = portal.reason(name);
      return (
        <Field
          key={name}
          id={id}
          label={options.label ?? messageOr(t, labelKey) ?? labelKey}
          kind={kind}
          registration={form.register(name as Path<T>)}
          error={errorAt(form.formState.errors, name)}
          hint={reason ?? options.hint ?? (options.hintKey ? (messageOr(t, options.hintKey) ?? undefined) : undefined)}
          optional={options.optional}
          options={options.options}
          autoComplete={options.autoComplete}
        />
      );
    };
}
export type FieldRender = ReturnType<ReturnType<typeof useFieldRenderer>>;

/** The four fields of an address, with a group label. */
export function AddressFields({
  render,
  prefix,
  legend,
  autoCompleteSection,
}: {
  render: FieldRender;
  prefix: string;
  legend: string;
  autoCompleteSection?: string;
}) {
  const portal = usePortal();
  if (!portal.shows(prefix)) return null;
  const ac = (part: string) => (autoCompleteSection ? `${autoCompleteSection} ${part}` : "off");
  return (
    <fieldset className="mb-4 rounded-lg border border-line p-4">
      <legend className="px-1 font-medium">{legend}</legend>
      {render(`${prefix}.address`, "fields.address.address", "text", { autoComplete: ac("street-address") })}
      <div className="grid gap-x-4 sm:grid-cols-3">
        {render(`${prefix}.city`, "fields.address.city", "text", { autoComplete: ac("address-level2") })}
        {render(`${prefix}.state`, "fields.address.state", "select", {
          options: usStates.map(([code, name]) => ({ value: code, label: `${name} (${code})` })),
          autoComplete: ac("address-level1"),
        })}
        {render(`${prefix}.zip`, "fields.address.zip", "digits", {
          hintKey: "fields.hints.zip",
          autoComplete: ac("postal-code"),
        })}
      </div>
    </fieldset>
  );
}

/** A group of fields (a fieldset) shown in the portal only when something in it was asked for. */
export function PortalGroup({ path, children }: { path: string | string[]; children: React.ReactNode }) {
  const portal = usePortal();
  return (Array.isArray(path) ? path : [path]).some((p) => portal.shows(p)) ? <>{children}</> : null;
}
