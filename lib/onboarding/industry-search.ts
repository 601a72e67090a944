import {
  type ProductCategory,
  productSubcategories,
  type ProductSubcategory,
  subcategoryCategory,
} from "../schemas/product-categories";

// The wizard's one search over every industry (issue 48): a merchant types what it does in its own
// words ("coffee", "panadería", "plumber") and is offered the reference's subcategories that fit, across
// every category, each with its category. Words people use (English and Spanish, accents optional)
// lead to the subcategories they mean; the subcategories' and categories' own names match too. What is
// chosen is always one of the reference's values (main_product.category and .subcategory).

/** Everyday words (English and Spanish) and the subcategories they mean, best first. */
const everydayWords: [string[], ProductSubcategory[]][] = [
  [
    ["coffee", "cafe", "espresso", "tea", "cafeteria", "te"],
    ["Restaurants", "Fast Food"],
  ],
  [
    ["bakery", "bread", "cake", "pastry", "donut", "panaderia", "pasteleria", "pan", "pasteles"],
    ["Pastries", "Restaurants"],
  ],
  [
    [
      "restaurant",
      "diner",
      "bistro",
      "pizza",
      "pizzeria",
      "sushi",
      "taco",
      "taqueria",
      "burger",
      "noodle",
      "restaurante",
      "comida",
    ],
    ["Restaurants", "Fast Food", "Catering"],
  ],
  [
    ["food truck", "takeout", "take away", "comida rapida", "hamburguesas"],
    ["Fast Food", "Restaurants"],
  ],
  [["bar", "pub", "brewery", "nightclub", "cerveceria", "cantina", "discoteca"], ["Bars and Lounges"]],
  [["catering", "banquet", "banquete", "eventos"], ["Catering"]],
  [["grocery", "supermarket", "market", "deli", "bodega", "supermercado", "mercado", "abarrotes"], ["Grocery stores"]],
  [
    ["butcher", "meat", "carniceria", "carne"],
    ["Frozen meat", "Grocery stores"],
  ],
  [["candy", "chocolate", "snacks", "ice cream", "dulces", "golosinas", "helados"], ["Candy and snacks"]],
  [
    ["hair", "salon", "barber", "nails", "peluqueria", "barberia", "salon de belleza", "unas"],
    ["Beauty and Barber Shops"],
  ],
  [
    ["spa", "massage", "masaje", "masajes"],
    ["Health and Beauty Spas", "Massage Parlors"],
  ],
  [["tattoo", "piercing", "tatuajes"], ["Miscellaneous Personal Services"]],
  [["gym", "fitness", "yoga", "pilates", "gimnasio"], ["Recreational Membership Clubs"]],
  [["dentist", "dental", "dentista"], ["Dentists"]],
  [["doctor", "clinic", "physician", "medico", "clinica", "consultorio"], ["Doctors"]],
  [["chiropractor", "quiropractico"], ["Chiropractors"]],
  [["optician", "glasses", "optica", "gafas", "lentes"], ["Opticians, Optical Goods and Eyeglasses"]],
  [["pharmacy", "drugstore", "farmacia"], ["Drug Stores and Pharmacies"]],
  [["vet", "veterinary", "veterinario", "veterinaria"], ["Veterinary Services"]],
  [["pet", "pets", "pet store", "mascotas", "tienda de mascotas"], ["Pet Shops, Pet Food, and Supplies"]],
  [["plumber", "plumbing", "hvac", "heating", "fontanero", "plomero", "plomeria"], ["HVAC, Plumbing"]],
  [["electrician", "electricista"], ["Electricians"]],
  [["carpenter", "carpintero", "carpinteria"], ["Carpentry"]],
  [["contractor", "builder", "remodeling", "contratista", "construccion", "reformas"], ["General Contractor"]],
  [["roofing", "roofer", "techos"], ["Roofing, Siding, and Sheet Metal Work Contractors"]],
  [["cleaning", "janitorial", "maid", "limpieza"], ["Cleaning, Maintenance & Janitorial Services"]],
  [
    ["laundry", "laundromat", "lavanderia"],
    ["Laundromats", "Laundry, Cleaning, and Garment Services"],
  ],
  [["dry cleaning", "dry cleaner", "tintoreria"], ["Dry Cleaners"]],
  [["tailor", "alterations", "sastre", "sastreria", "arreglos"], ["Tailors, Seamstresses, Mending, Alterations"]],
  [["lawyer", "attorney", "law firm", "abogado", "abogados"], ["Legal Services and Attorneys"]],
  [["accountant", "bookkeeping", "tax", "taxes", "contador", "contable", "impuestos"], ["Tax Preparation Services"]],
  [
    ["software", "app", "web design", "it services", "programacion", "desarrollo de software"],
    ["Computer Programming, Data Processing, and Integrated Systems Design Services"],
  ],
  [["consulting", "consultant", "consultoria", "asesoria"], ["Management, Consulting, and Public Relations Services"]],
  [["marketing", "advertising", "agency", "publicidad", "agencia"], ["Advertising Services"]],
  [["printing", "print shop", "copies", "imprenta", "copias"], ["Quick Copy, Reproduction Service"]],
  [["photographer", "photography", "fotografo", "fotografia"], ["Photographic Studios"]],
  [
    ["clothing", "clothes", "boutique", "fashion", "ropa", "moda"],
    ["Family Clothing Stores", "Men's and Women's Clothing Stores"],
  ],
  [["shoes", "zapatos", "zapateria"], ["Shoe Stores"]],
  [["jewelry", "jewellery", "joyeria", "joyas"], ["Jewelry Stores"]],
  [["books", "bookstore", "libros", "libreria"], ["Book Stores"]],
  [["toys", "games", "juguetes", "jugueteria"], ["Hobby, Toy and Game Stores"]],
  [["furniture", "muebles", "muebleria"], ["Furniture and Home Furnishings Stores"]],
  [
    ["hardware", "ferreteria"],
    ["Hardware and Electrical", "Home Supply Warehouses"],
  ],
  [["garden", "plants", "nursery", "vivero", "plantas", "jardin"], ["Nursery and Garden Supplies"]],
  [["landscaping", "gardening", "lawn", "jardineria"], ["Landscaping Services"]],
  [["gifts", "souvenirs", "regalos"], ["Gift, Card, Novelty, and Souvenir Stores"]],
  [["sporting goods", "sports", "deportes"], ["Sporting Goods Stores"]],
  [["bike", "bicycle", "bicicleta", "bicicletas"], ["Bicycle Shop-Sales and Services"]],
  [["cosmetics", "makeup", "beauty products", "cosmeticos", "maquillaje"], ["Cosmetic Stores"]],
  [["liquor", "wine shop", "beer store", "licoreria", "vinos"], ["Package Stores--Beer, Wine, and Liquor"]],
  [["phone repair", "electronics repair", "reparacion de celulares"], ["Electronic Repair Shops"]],
  [["car repair", "mechanic", "auto repair", "taller mecanico", "mecanico"], ["Automotive Service Shops (Non-Dealer)"]],
  [["car wash", "lavado de autos", "autolavado"], ["Car Washes"]],
  [
    ["car dealer", "cars", "concesionario", "autos"],
    ["New and Used Car Dealers", "Used Car Dealers"],
  ],
  [["auto parts", "refacciones", "repuestos"], ["Auto Part Stores"]],
  [["taxi", "limo", "limousine", "rideshare"], ["Taxicabs and Limousines"]],
  [["parking", "estacionamiento", "aparcamiento"], ["Parking Lots and Garages"]],
  [["hotel", "motel", "inn", "bed and breakfast", "hostal"], ["Lodging - Hotels, Motels, and Resorts"]],
  [
    ["school", "tutoring", "lessons", "escuela", "clases", "academia"],
    ["Schools and Educational Services - Not Elsewhere Classified"],
  ],
  [["daycare", "childcare", "guarderia"], ["Child Care Services"]],
  [["dance", "baile", "danza"], ["Dance Halls, Studios & Schools"]],
  [["music", "instruments", "musica", "instrumentos"], ["Music Stores"]],
  [["movie", "cinema", "theater", "cine"], ["Motion Picture Theater"]],
  [["church", "iglesia", "temple", "templo"], ["Religious Organizations"]],
  [
    ["charity", "nonprofit", "non profit", "ong", "beneficencia", "fundacion"],
    ["Charitable and Social Service Organizations"],
  ],
  [
    ["real estate", "property management", "inmobiliaria", "bienes raices"],
    ["Real Estate Agents and Managers - Rentals; Property Management"],
  ],
];

/** Lower case, accents gone, one space between words: "Panadería " and "panaderia" are the same. */
export const foldText = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9&]+/g, " ")
    .trim();

// Folded once, not on every keystroke.
const foldedWords = everydayWords.map(([words, subcategories]) => [words.map(foldText), subcategories] as const);
const foldedNames = productSubcategories.map((subcategory) => [subcategory, foldText(subcategory)] as const);

export type IndustryMatch = { category: ProductCategory; subcategory: ProductSubcategory };

/**
 * The subcategories that fit what was typed, best first, at most `limit`: those an everyday word
 * leads to (a word typed whole, or the start of one: "bak" finds bakery), then those whose reference
 * name, whose name in the reader's words (`subcategoryName`) or whose category's (`categoryName`)
 * holds the text. Under two
 * characters, nothing.
 */
export function searchIndustries(
  text: string,
  categoryName: (category: ProductCategory) => string,
  subcategoryName: (subcategory: ProductSubcategory) => string = (s) => s,
  limit = 8,
): IndustryMatch[] {
  const query = foldText(text);
  if (query.length < 2) return [];
  const found: ProductSubcategory[] = [];
  const add = (subcategory: ProductSubcategory) => {
    if (!found.includes(subcategory)) found.push(subcategory);
  };
  // Whole words first ("bar" is a bar, before "barber"), then words starting with the text.
  for (const whole of [true, false])
    for (const [words, subcategories] of foldedWords)
      if (words.some((w) => (whole ? w === query : w.startsWith(query)))) subcategories.forEach(add);
  for (const [subcategory, name] of foldedNames) if (name.includes(query)) add(subcategory);
  for (const subcategory of productSubcategories)
    if (foldText(subcategoryName(subcategory)).includes(query)) add(subcategory);
  for (const subcategory of productSubcategories)
    if (foldText(categoryName(subcategoryCategory[subcategory])).includes(query)) add(subcategory);
  return found.slice(0, limit).map((subcategory) => ({ category: subcategoryCategory[subcategory], subcategory }));
}
