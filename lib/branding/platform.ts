/**
 * The platform's own brand: what it sends the ISVs in its name (the residual's PDF, docs/reference.md
 * section 19), as the ISV's brand is on what reaches its merchants.
 */
export const platformBranding = { display_name: "Merchant Payments Platform", primary_color: "#0f172a" } as const;
