import { describe, expect, test } from "vitest";

import { productSubcategories, subcategoryCategory } from "../schemas/product-categories";
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
      const found = searchIndustries(subcategory, english, 500);
      expect(found, subcategory).toContainEqual({ category: subcategoryCategory[subcategory], subcategory });
    }
  });

  test("a category's name in the reader's words finds its subcategories", () => {
    const spanish = (c: string) => (c === "Medical" ? "Médico" : c);
    const found = searchIndustries("medico", spanish, 50);
    expect(found.length).toBeGreaterThan(5);
    expect(found.every((m) => m.category === "Medical")).toBe(true);
  });

  test("too short or unknown: nothing; never more than the limit", () => {
    expect(searchIndustries("c", english)).toEqual([]);
    expect(searchIndustries("   ", english)).toEqual([]);
    expect(searchIndustries("zzqx", english)).toEqual([]);
    expect(searchIndustries("services", english, 3)).toHaveLength(3);
    expect(searchIndustries("st", english)).toHaveLength(8);
  });

  test("text is folded: accents, case and punctuation", () => {
    expect(foldText("  Café--Crème ")).toBe("cafe creme");
  });
});
