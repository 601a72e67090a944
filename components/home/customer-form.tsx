"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";

import { primaryButtonClass } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import type { CustomerActionResult } from "@/lib/actions/home-customers";

/** A new customer from the merchant's home: a name and an e-mail (where invoices and receipts go); opens its page. */
export function CustomerForm({ action }: { action: (input: unknown) => Promise<CustomerActionResult> }) {
  const t = useTranslations("merchantHome.customers");
  const router = useRouter();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<{ param?: string; message: string } | null>(null);
  const [pending, start] = useTransition();
  const input = inputClass();
  return (
    <section aria-labelledby="new-customer" className="rounded-lg border border-line bg-card p-4">
      <h2 id="new-customer" className="text-lg font-semibold">
        {t("newTitle")}
      </h2>
      <form
        noValidate
        className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) {
            setError({ param: "name", message: t("nameRequired") });
            document.getElementById("customer-name")?.focus();
            return;
          }
          setError(null);
          start(async () => {
            const result = await action({ name: name.trim(), ...(email.trim() ? { email: email.trim() } : {}) });
            if (!result.ok)
              return setError({
                param: result.param,
                message: result.param === "email" ? t("emailInvalid") : result.message,
              });
            router.push(`/home/customers/${result.id}`);
          });
        }}
      >
        <div>
          <label htmlFor="customer-name" className="block text-sm font-medium">
            {t("name")}
          </label>
          <input
            id="customer-name"
            autoComplete="off"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={error?.param === "name" ? true : undefined}
            aria-describedby={error ? "customer-error" : undefined}
            className={input}
          />
        </div>
        <div>
          <label htmlFor="customer-email" className="block text-sm font-medium">
            {t("email")} <span className="font-normal text-muted">{t("optional")}</span>
          </label>
          <input
            id="customer-email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error?.param === "email" ? true : undefined}
            aria-describedby={error ? "customer-error" : undefined}
            className={input}
          />
        </div>
        <button type="submit" disabled={pending} className={primaryButtonClass("md", "min-h-[44px]")}>
          {pending ? t("adding") : t("add")}
        </button>
        {error ? (
          <p id="customer-error" role="alert" className="text-sm text-red-700 sm:col-span-3">
            {error.message}
          </p>
        ) : null}
      </form>
    </section>
  );
}
