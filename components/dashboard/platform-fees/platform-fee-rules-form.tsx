"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useMemo, useState, useTransition } from "react";

import { PrimaryButton } from "@/components/ui/button";
import { inputClass } from "@/components/ui/input-class";
import { saveSettingsAction } from "@/lib/actions/dashboard";
import {
  platformFeeRefundPolicies,
  type PlatformFeeRefundPolicy,
  type PlatformFeeRule,
} from "@/lib/schemas/platform-fees";

import { FeePreview } from "./fee-preview";
import { RuleFieldset } from "./rule-fieldset";
import { emptyRow, type Row, rowOf, rulesOf } from "./rule-rows";

// The account's platform fee rules (docs/reference.md section 19), edited as rows a person reads:
// when (payment type, card present, amounts, merchants) and what (an amount, a percent, bounds), in
// order, the first match winning; and a preview of the fee a payment of a given amount and type
// would pay under the rules as typed, before they are saved. Each rule's fieldset is
// ./rule-fieldset.tsx, the rows' reading ./rule-rows.ts, the preview ./fee-preview.tsx.

export function PlatformFeeRulesForm({ rules, refund }: { rules: PlatformFeeRule[]; refund: PlatformFeeRefundPolicy }) {
  const t = useTranslations("revenue");
  const router = useRouter();
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => rules.map(rowOf));
  const [nextKey, setNextKey] = useState(rules.length);
  const [policy, setPolicy] = useState<PlatformFeeRefundPolicy>(refund);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const parsed = useMemo(() => rulesOf(rows), [rows]);

  const set = (key: number, change: Partial<Row>) =>
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const moveUp = (index: number) =>
    setRows((all) => {
      const next = [...all];
      const [row] = next.splice(index, 1);
      if (row) next.splice(index - 1, 0, row);
      return next;
    });

  const save = () =>
    start(async () => {
      if (!parsed.ok) return;
      const result = await saveSettingsAction({
        settings: { platform_fee_rules: parsed.rules, platform_fee_refund: policy },
      });
      setMessage(
        result.ok
          ? { ok: true, text: t("rulesSaved") }
          : { ok: false, text: result.errors.map((e) => `${e.param}: ${e.message}`).join("; ") },
      );
      if (result.ok) router.refresh();
    });

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-line bg-card p-4"
      data-testid="fee-rules"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {t("rulesTitle")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.rich("rulesIntro", { code: (chunks) => <code>{chunks}</code> })}</p>
      {rows.length === 0 ? <p className="mt-3">{t("noRules")}</p> : null}
      <ol className="mt-3 space-y-4">
        {rows.map((row, index) => (
          <li key={row.key} className="rounded-lg border border-line p-3" data-testid={`rule-${index + 1}`}>
            <RuleFieldset
              id={id}
              row={row}
              index={index}
              parsed={parsed}
              onChange={(change) => set(row.key, change)}
              onMoveUp={() => moveUp(index)}
              onRemove={() => setRows((all) => all.filter((r) => r.key !== row.key))}
            />
          </li>
        ))}
      </ol>
      <button
        type="button"
        onClick={() => {
          setRows((all) => [...all, emptyRow(nextKey)]);
          setNextKey((k) => k + 1);
        }}
        className="mt-3 rounded border border-line px-3 py-1"
      >
        {t("addRule")}
      </button>

      <div className="mt-4">
        <label htmlFor={`${id}-refund`} className="block text-sm font-medium">
          {t("refundPolicy")}
        </label>
        <select
          id={`${id}-refund`}
          value={policy}
          onChange={(e) => setPolicy(e.target.value as PlatformFeeRefundPolicy)}
          className={inputClass("sm:w-auto")}
        >
          {platformFeeRefundPolicies.map((p) => (
            <option key={p} value={p}>
              {t(`refundPolicies.${p}`)}
            </option>
          ))}
        </select>
      </div>

      <FeePreview id={id} parsed={parsed} />

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <PrimaryButton size="md" onClick={save} disabled={pending || !parsed.ok}>
          {t("saveRules")}
        </PrimaryButton>
        {message ? (
          <p role="status" className={message.ok ? "" : "text-danger"} data-testid="fee-rules-message">
            {message.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}
