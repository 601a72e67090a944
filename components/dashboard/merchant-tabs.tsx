import Link from "next/link";

/** The merchant page's tabs, in their order: each is `?tab=<name>` of the page (the overview by default). */
export const merchantTabs = [
  "overview",
  "payments",
  "payouts",
  "disputes",
  "documents",
  "application",
  "settings",
  "activity",
] as const;
export type MerchantTab = (typeof merchantTabs)[number];

/**
 * The tabs as links (each a page of its own URL, so it can be shared, bookmarked and opened in a new
 * tab): the current one marked `aria-current`. On a phone the row wraps onto more lines, so every tab
 * and the current one are in sight (a row scrolling sideways hid the current tab off screen).
 */
export function MerchantTabs({
  merchantId,
  current,
  label,
  names,
}: {
  merchantId: string;
  current: MerchantTab;
  label: string;
  names: Record<MerchantTab, string>;
}) {
  return (
    <nav aria-label={label} className="border-b border-line">
      <ul className="flex flex-wrap gap-x-1">
        {merchantTabs.map((name) => (
          <li key={name}>
            <Link
              href={
                name === "overview"
                  ? `/dashboard/merchants/${merchantId}`
                  : `/dashboard/merchants/${merchantId}?tab=${name}`
              }
              aria-current={name === current ? "page" : undefined}
              className={`inline-block border-b-2 px-3 py-2 text-sm ${
                name === current ? "border-primary font-semibold" : "border-transparent text-muted hover:text-ink"
              }`}
            >
              {names[name]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
