"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { stepSchema } from "@/lib/onboarding/step-schemas";
import {
  categoryKey,
  productCategories,
  type ProductCategory,
  subcategoriesOf,
} from "@/lib/schemas/product-categories";

import { useFieldRenderer } from "../fields";
import { FormStep, toFormValues } from "../form-step";
import type { StepProps } from "../step-props";

const schema = stepSchema("product");

// Product: description, website, and a subcategory list filtered by the category, with search.
export function ProductStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const product = (session.merchant as Record<string, any>).main_product ?? {};
  const [search, setSearch] = useState("");
  return (
    <FormStep
      schema={schema}
      defaultValues={toFormValues({ main_product: product })}
      nextHref={nextHref}
      onSaved={onSaved}
    >
      {(form) => {
        const render = fieldsFor(form, "product");
        const category = form.watch("main_product.category" as never) as unknown as string;
        const all = category ? subcategoriesOf(category as ProductCategory) : [];
        const current = form.getValues("main_product.subcategory" as never) as unknown as string;
        const shown = all.filter((s) => s.toLowerCase().includes(search.toLowerCase()) || s === current);
        return (
          <>
            {render("main_product.description", "fields.product.description", "textarea")}
            {render("main_product.website", "fields.product.website", "url", {
              hintKey: "fields.hints.website",
              autoComplete: "url",
            })}
            {render("main_product.category", "fields.product.category", "select", {
              options: productCategories.map((c) => ({
                value: c,
                label: t(`options.category.${categoryKey(c)}` as never),
              })),
            })}
            <div className="mb-2">
              <label htmlFor="subcategory-search" className="block text-sm font-medium">
                {t("fields.product.subcategorySearch")}
              </label>
              <input
                id="subcategory-search"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                disabled={!category}
                className="mt-1 block w-full rounded-lg border border-line bg-card px-3 py-2.5 text-base disabled:opacity-60"
              />
            </div>
            {render("main_product.subcategory", "fields.product.subcategory", "select", {
              options: shown.map((s) => ({ value: s, label: s })),
            })}
          </>
        );
      }}
    </FormStep>
  );
}
