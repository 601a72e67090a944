import type { ComponentProps } from "react";

import { inputClass } from "@/components/ui/input-class";

/**
 * One field of a filter form (a plain GET form: its `name` is its `id`): the label, the input and,
 * when the value could not be used, why, tied to the input (aria-describedby) and marked invalid.
 */
export function FilterField({
  id,
  label,
  problem,
  ...input
}: { id: string; label: string; problem?: string | null } & Omit<ComponentProps<"input">, "id" | "name">) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={id}
        className={inputClass()}
        {...input}
        {...(problem ? { "aria-invalid": true, "aria-describedby": `${id}-problem` } : {})}
      />
      {problem ? (
        <p id={`${id}-problem`} className="mt-1 text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/** One choice of a filter form: the label, and a select whose first option (`any`, value "") filters nothing. */
export function FilterSelect({
  id,
  label,
  any,
  options,
  defaultValue,
}: {
  id: string;
  label: string;
  any: string;
  options: { value: string; label: string }[];
  defaultValue?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <select id={id} name={id} defaultValue={defaultValue ?? ""} className={inputClass()}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
