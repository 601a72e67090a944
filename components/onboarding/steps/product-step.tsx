"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { inputClass } from "@/components/ui/input-class";
import { messageOr } from "@/lib/i18n/dynamic";
import type { LooseJson } from "@/lib/loose-json";
import { searchIndustries } from "@/lib/onboarding/industry-search";
import { stepSchema } from "@/lib/onboarding/step-schemas";
import {
  categoryKey,
  productCategories,
  type ProductCategory,
  subcategoriesOf,
} from "@/lib/schemas/product-categories";

import { useFieldRenderer } from "../fields";
import { FormStep } from "../form-step";
import { toFormValues } from "../form-values";
import type { StepProps } from "../step-props";

const schema = stepSchema("product");

// Product: description, website, and the industry: one search over every category in the merchant's
// own words ("coffee" → Restaurants; lib/onboarding/industry-search.ts) that fills the category and
// subcategory, which can also be chosen from their lists.
export function ProductStep({ session, onSaved, nextHref }: StepProps) {
  const t = useTranslations();
  const fieldsFor = useFieldRenderer();
  const product = (session.merchant as LooseJson).main_product ?? {};
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
        const category = String(form.watch("main_product.category") ?? "");
        const all = category ? subcategoriesOf(category as ProductCategory) : [];
        const categoryName = (c: ProductCategory) => messageOr(t, `options.category.${categoryKey(c)}`) ?? c;
        const subcategoryName = (s: string) => messageOr(t, `subcategories.${categoryKey(s)}`) ?? s;
        const matches = searchIndustries(search, categoryName, subcategoryName);
        const choose = (match: (typeof matches)[number]) => {
          form.setValue("main_product.category", match.category, {
            shouldDirty: true,
            shouldValidate: true,
          });
          // The subcategory's options follow the category: set once they are there (the click's
          // render has been committed when the timer runs).
          setTimeout(() => {
            form.setValue("main_product.subcategory", match.subcategory, {
              shouldDirty: true,
              shouldValidate: true,
            });
            setSearch("");
            form.setFocus("main_product.subcategory");
          }, 0);
        };
        return (
          <>
            {render("main_product.description", "fields.product.description", "textarea")}
            {render("main_product.website", "fields.product.website", "url", {
              hintKey: "fields.hints.website",
              autoComplete: "url",
            })}
            <div className="mb-4">
              <label htmlFor="industry-search" className="block text-sm font-medium">
                {t("fields.product.industrySearch")}
              </label>
              <p id="industry-search-hint" className="text-sm text-muted">
                {t("fields.product.industrySearchHint")}
              </p>
              <input
                id="industry-search"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                aria-describedby="industry-search-hint"
                aria-controls="industry-results"
                autoComplete="off"
                className={inputClass("text-base")}
              />
              <div id="industry-results" aria-live="polite">
                {search.trim().length < 2 ? null : matches.length === 0 ? (
                  <p className="mt-2 text-sm">{t("fields.product.industryNone")}</p>
                ) : (
                  <ul className="mt-2 grid gap-1" aria-label={t("fields.product.industryResults")}>
                    {matches.map((m) => (
                      <li key={m.subcategory}>
                        <button
                          type="button"
                          onClick={() => choose(m)}
                          className="w-full rounded-lg border border-line bg-card px-3 py-2 text-left hover:border-primary"
                        >
                          <span className="font-medium">{subcategoryName(m.subcategory)}</span>
                          <span className="block text-sm text-muted">{categoryName(m.category)}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
            {render("main_product.category", "fields.product.category", "select", {
              options: productCategories.map((c) => ({ value: c, label: categoryName(c) })),
            })}
            {render("main_product.subcategory", "fields.product.subcategory", "select", {
              options: all.map((s) => ({ value: s, label: subcategoryName(s) })),
            })}
          </>
        );
      }}
    </FormStep>
  );
}
