"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The dashboard's sections as tabs under its header (the current one marked, for the eye and for
 * screen readers): a page of a section (a merchant's page under Merchants) lights its section.
 */
export function DashboardNav({ label, items }: { label: string; items: { href: string; label: string }[] }) {
  const pathname = usePathname();
  const current = (href: string) =>
    href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <nav aria-label={label} className="mx-auto max-w-5xl px-4">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={current(item.href) ? "page" : undefined}
              className={`inline-block border-b-2 px-2 py-2 text-sm font-medium ${
                current(item.href) ? "border-primary text-ink" : "border-transparent text-muted hover:text-ink"
              }`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
