"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { createKeyAction } from "@/lib/actions/api-keys";
import { type Access, accessLevels, keyResources } from "@/lib/auth/permissions";

import { type NewSecret, SecretOnce, useKeyChange } from "./use-key-change";

/** Makes a key: its name, standard or restricted, and a restricted key's access per resource. */
export function NewKeyForm() {
  const t = useTranslations("apiKeys");
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"standard" | "restricted">("restricted");
  const [access, setAccess] = useState<Record<string, Access>>(
    Object.fromEntries(keyResources.map((r) => [r, "none"])),
  );
  const [made, setMade] = useState<NewSecret | null>(null);
  const { error, pending, run } = useKeyChange();
  return (
    <section aria-labelledby="new-key-title" className="mt-4">
      <h3 id="new-key-title" className="font-semibold">
        {t("create.title")}
      </h3>
      <form
        className="mt-2 space-y-3 rounded-lg border border-line bg-card p-4"
        onSubmit={(e) => {
          e.preventDefault();
          run(
            () => createKeyAction({ name, permissions: kind === "restricted" ? access : null }),
            (value) => {
              setMade(value);
              setName("");
            },
          );
        }}
      >
        <div>
          <label htmlFor="key-name" className="block text-sm font-medium">
            {t("create.name")}
          </label>
          <input
            id="key-name"
            required
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={inputClass("sm:w-80")}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">{t("create.kind")}</legend>
          {(["restricted", "standard"] as const).map((k) => (
            <label key={k} className="mt-1 flex items-center gap-2">
              <input type="radio" name="key-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              {t(`create.${k}`)}
            </label>
          ))}
        </fieldset>
        {kind === "restricted" ? (
          <div className="grid gap-3 sm:grid-cols-2">
            {keyResources.map((r) => (
              <div key={r}>
                <label htmlFor={`key-access-${r}`} className="block text-sm font-medium">
                  {t(`resources.${r}`)}
                </label>
                <select
                  id={`key-access-${r}`}
                  value={access[r]}
                  onChange={(e) => setAccess({ ...access, [r]: e.target.value as Access })}
                  className={inputClass()}
                >
                  {accessLevels.map((a) => (
                    <option key={a} value={a}>
                      {t(`access.${a}`)}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </div>
        ) : null}
        <button type="submit" disabled={pending} className={primaryButtonClass("md")}>
          {t("create.submit")}
        </button>
        {error ? (
          <p role="alert" className="text-danger">
            {error}
          </p>
        ) : null}
      </form>
      <SecretOnce made={made} />
    </section>
  );
}
