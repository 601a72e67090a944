import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";

import { primaryButtonClass } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { FilterField, FilterSelect } from "@/components/ui/filter-field";
import { requireIsvUser } from "@/lib/dashboard/session";
import { auditActions, isAuditAction } from "@/lib/domain/audit/actions";
import { actorIdsMatching, actorNames } from "@/lib/domain/audit/actor-names";
import { listAuditLogs } from "@/lib/domain/audit/list-audit-logs";

/** A member's entry names the sign-in's factor (docs/reference.md section 23). */
const isFactorVia = (via: string | null): via is "password" | "totp" | "passkey" | "recovery_code" =>
  via === "password" || via === "totp" || via === "passkey" || via === "recovery_code";

export async function generateMetadata() {
  const t = await getTranslations("dashboard");
  return { title: t("auditTitle") };
}

type Query = { resource_id?: string; actor?: string; action?: string; from?: string; to?: string; after?: string };

// /dashboard/audit: who changed what in the ISV's account and its merchants (GET /v1/audit_logs),
// newest first, 50 a page, filtered by what was done, who did it (a team member's e-mail, a
// merchant's name, or any actor's id), between two days (UTC), or by the resource's id (a plain GET form).
export default async function AuditPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { db, account } = await requireIsvUser("reports:read");
  const raw = await searchParams;
  const clean = (v: unknown) => (typeof v === "string" && /^[\w.@-]{1,64}$/.test(v.trim()) ? v.trim() : undefined);
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 100) : undefined);
  const dayOf = (v: unknown) => (typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
  const filters = {
    resource_id: clean(raw.resource_id),
    actor: text(raw.actor),
    action: typeof raw.action === "string" && isAuditAction(raw.action) ? raw.action : undefined,
    from: dayOf(raw.from),
    to: dayOf(raw.to),
  };
  const page = await listAuditLogs(db, account.id, {
    limit: 50,
    resource_id: filters.resource_id,
    action: filters.action,
    ...(filters.actor ? { actor_ids: await actorIdsMatching(db, account.id, filters.actor) } : {}),
    ...(filters.from ? { "created[gte]": Date.parse(`${filters.from}T00:00:00.000Z`) } : {}),
    ...(filters.to ? { "created[lte]": Date.parse(`${filters.to}T23:59:59.999Z`) } : {}),
    starting_after: clean(raw.after),
  });
  const names = await actorNames(
    db,
    account.id,
    page.rows.map((r) => r.actorId),
  );
  const t = await getTranslations("dashboard");
  const format = await getFormatter();
  const next = new URLSearchParams(
    Object.entries({ ...filters, after: page.rows.at(-1)?.id }).filter(([, v]) => v) as [string, string][],
  );
  const filtered = Object.values(filters).some(Boolean);
  const actionOptions = auditActions
    .map((a) => ({ value: a, label: t(`auditActions.${a}`) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t("auditTitle")}</h1>
      <p>{t("auditIntro")}</p>
      <form
        method="get"
        action="/dashboard/audit"
        aria-label={t("auditFilters")}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3"
      >
        <FilterSelect
          id="action"
          label={t("auditWhat")}
          any={t("auditAnyAction")}
          defaultValue={filters.action}
          options={actionOptions}
        />
        <FilterField id="actor" label={t("auditActor")} defaultValue={filters.actor ?? ""} />
        <FilterField id="resource_id" label={t("auditResource")} defaultValue={filters.resource_id ?? ""} />
        <FilterField id="from" label={t("auditFromDay")} type="date" defaultValue={filters.from ?? ""} />
        <FilterField id="to" label={t("auditToDay")} type="date" defaultValue={filters.to ?? ""} />
        <div className="flex items-end gap-3">
          <button type="submit" className={primaryButtonClass("md")}>
            {t("auditApply")}
          </button>
          {filtered ? (
            <Link href="/dashboard/audit" className="underline">
              {t("auditClear")}
            </Link>
          ) : null}
        </div>
      </form>
      <DataTable
        id="audit"
        title={t("auditEntries")}
        testId="audit-entries"
        empty={page.rows.length === 0 ? t("auditEmpty") : null}
        columns={[
          { label: t("date") },
          { label: t("auditWho") },
          { label: t("auditWhat") },
          { label: t("auditResource") },
          { label: t("auditFields") },
          { label: t("auditFrom") },
        ]}
      >
        {page.rows.map((row) => (
          <tr key={row.id} className="border-b border-line align-top">
            <td className="py-2 pr-3 whitespace-nowrap">
              {format.dateTime(row.createdAt, { dateStyle: "medium", timeStyle: "medium" })}
            </td>
            <td className="py-2 pr-3">
              {t(`auditActors.${row.actorType}`)}
              {row.actorType === "merchant" && (row.actorVia === "home" || row.actorVia === "wizard")
                ? ` (${t(`auditVia.${row.actorVia}`)})`
                : ""}
              {row.actorType === "api_key" && row.actorVia ? ` (${t("auditKeyVia", { last4: row.actorVia })})` : ""}
              {row.actorType === "user" && isFactorVia(row.actorVia) ? ` (${t(`auditFactorVia.${row.actorVia}`)})` : ""}
              {names.get(row.actorId) ? <span className="block">{names.get(row.actorId)}</span> : null}
              <code className="block text-xs break-all text-muted">{row.actorId}</code>
            </td>
            <td className="py-2 pr-3">
              {isAuditAction(row.action) ? t(`auditActions.${row.action}`) : row.action}
              <code className="block text-xs text-muted">{row.action}</code>
            </td>
            <td className="py-2 pr-3 font-mono text-xs break-all" data-id>
              {row.resourceId.startsWith("mer_") ? (
                <Link className="underline" href={`/dashboard/merchants/${row.resourceId}`}>
                  {row.resourceId}
                </Link>
              ) : (
                row.resourceId
              )}
            </td>
            <td className="py-2 pr-3 font-mono text-xs break-all" data-id>
              {row.fields.join(", ")}
            </td>
            <td className="py-2 font-mono text-xs break-all" data-id>
              {row.clientAddress ?? ""}
              {row.requestId ? <span className="block text-muted">{row.requestId}</span> : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {page.hasMore ? (
        <Link className="underline" href={`/dashboard/audit?${next}`}>
          {t("next")}
        </Link>
      ) : null}
    </div>
  );
}
