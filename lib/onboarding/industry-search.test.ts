import { describe, expect, test } from "vitest";

import en from "../i18n/messages/en.json" with { type: "json" };
import es from "../i18n/messages/es.json" with { type: "json" };
import {
  categoryKey,
  productCategories,
  productSubcategories,
  subcategoryCategory,
} from "../schemas/product-categories";
import { foldText, searchIndustries } from "./industry-search";

const english = (category: string) => category;
const first = (text: string, name = english) => searchIndustries(text, name)[0];

describe("one search over every industry", () => {
  test("everyday words lead to the reference's values, across categories", () => {
    expect(first("coffee")).toEqual({ category: "Restaurants", subcategory: "Restaurants" });
    expect(first("Panadería")).toEqual({ category: "Grocery and Food", subcategory: "Pastries" });
    expect(first("bak")).toEqual({ category: "Grocery and Food", subcategory: "Pastries" });
    expect(first("plumber")).toEqual({ category: "Construction", subcategory: "HVAC, Plumbing" });
    expect(first("  DENTIST ")).toEqual({ category: "Medical", subcategory: "Dentists" });
    expect(first("lavandería")?.subcategory).toBe("Laundromats");
  });

  test("a whole word comes before words that start with it", () => {
    const bar = searchIndustries("bar", english).map((m) => m.subcategory);
    expect(bar[0]).toBe("Bars and Lounges");
    expect(bar).toContain("Beauty and Barber Shops");
    expect(bar.indexOf("Bars and Lounges")).toBeLessThan(bar.indexOf("Beauty and Barber Shops"));
  });

  test("every subcategory is found by its own name, with its own category", () => {
    for (const subcategory of productSubcategories) {
      const found = searchIndustries(subcategory, english, undefined, 500);
      expect(found, subcategory).toContainEqual({ category: subcategoryCategory[subcategory], subcategory });
    }
  });

  test("a category's name in the reader's words finds its subcategories", () => {
    const spanish = (c: string) => (c === "Medical" ? "Médico" : c);
    const found = searchIndustries("medico", spanish, undefined, 50);
    expect(found.length).toBeGreaterThan(5);
    expect(found.every((m) => m.category === "Medical")).toBe(true);
  });

  test("too short or unknown: nothing; never more than the limit", () => {
    expect(searchIndustries("c", english)).toEqual([]);
    expect(searchIndustries("   ", english)).toEqual([]);
    expect(searchIndustries("zzqx", english)).toEqual([]);
    expect(searchIndustries("services", english, undefined, 3)).toHaveLength(3);
    expect(searchIndustries("st", english)).toHaveLength(8);
  });

  test("text is folded: accents, case and punctuation", () => {
    expect(foldText("  Café--Crème ")).toBe("cafe creme");
  });
});

test("a subcategory's name in the reader's words finds it", () => {
  const spanish = (s: string) => (s === "Pawn Shop" ? "Casas de empeño" : s);
  expect(searchIndustries("empeno", english, spanish)[0]).toEqual({ category: "Retail", subcategory: "Pawn Shop" });
});

test("every category and subcategory has its name in English and Spanish", () => {
  for (const messages of [en, es] as Record<string, any>[]) {
    for (const category of productCategories)
      expect(messages.options.category[categoryKey(category)], category).toBeTruthy();
    for (const subcategory of productSubcategories)
      expect(messages.subcategories[categoryKey(subcategory)], subcategory).toBeTruthy();
  }
  expect((es as Record<string, any>).subcategories[categoryKey("Pastries")]).toBe("Panaderías y pastelerías");
  // The card networks' codes read in plain words.
  expect((en as Record<string, any>).subcategories[categoryKey("U.K. Supermarkets, Electronic Hot File")]).toBe(
    "Supermarkets (U.K.)",
  );
});
