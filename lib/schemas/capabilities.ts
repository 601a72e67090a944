import { z } from "zod";

import { decimalString, percentString } from "./atoms";
import { capabilityTypes } from "./vocabulary";
export { capabilityTypes };
export const advantageRates = ["4.00", "3.99", "3.75", "3.50", "3.25", "3.00"] as const;

// Field names end in `_percent` / `_rate` (a percentage) or `_fixed` / `_fee` (an amount).
const fieldsOf = <const K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, /(_percent|_rate)$/.test(k) ? percentString : decimalString])) as Record<
    K,
    typeof percentString | typeof decimalString
  >;

export const twoTieredFields = [
  "vmd_cp_rate_percent",
  "vmd_cp_fee_fixed",
  "vmd_cnp_rate_percent",
  "vmd_cnp_fee_fixed",
  "amex_cp_rate_percent",
  "amex_cp_fee_fixed",
  "amex_cnp_rate_percent",
  "amex_cnp_fee_fixed",
] as const;
export const passThroughFields = [
  "processor_markup_percent",
  "transaction_fee_fixed",
  "vmd_credit_discount_percent",
  "vmd_credit_fee_fixed",
  "vmd_debit_discount_percent",
  "vmd_debit_fee_fixed",
  "amex_discount_percent",
  "amex_fee_fixed",
] as const;
export const flatRateFields = [
  "rate_percent",
  "fee_fixed",
  "vmd_credit_rate_percent",
  "vmd_credit_fee_fixed",
  "vmd_debit_rate_percent",
  "vmd_debit_fee_fixed",
  "amex_rate_percent",
  "amex_fee_fixed",
] as const;
export const tieredFields = [
  "vmd_qual_credit_rate_percent",
  "vmd_midq_credit_rate_percent",
  "vmd_midq_credit_fee_fixed",
  "vmd_nonq_credit_rate_percent",
  "vmd_nonq_credit_fee_fixed",
  "vmd_qual_debit_rate_percent",
  "vmd_midq_debit_rate_percent",
  "vmd_midq_debit_fee_fixed",
  "vmd_nonq_debit_rate_percent",
  "vmd_nonq_debit_fee_fixed",
  "amex_qual_credit_rate_percent",
  "amex_midq_credit_rate_percent",
  "amex_midq_credit_fee_fixed",
  "amex_nonq_credit_rate_percent",
  "amex_nonq_credit_fee_fixed",
  "qualified_rate_percent",
  "qualified_fee_fixed",
  "mid_qualified_rate_percent",
  "mid_qualified_fee_fixed",
  "non_qualified_rate_percent",
  "non_qualified_fee_fixed",
] as const;
export const defaultAchFields = [
  "txn_fee_fixed",
  "txn_fee_percent",
  "return_fee_fixed",
  "chargeback_fee_fixed",
  "txn_premium_fee_fixed",
  "monthly_fee",
  "daily_batch_fee",
  "return_reversal_fee",
  "gross_volume_discount_rate",
  "premium_discount_rate",
] as const;
export const merchantAchFields = [
  "txn_fee_percent",
  "txn_fee_fixed",
  "return_fee_fixed",
  "chargeback_fee_fixed",
  "monthly_fee",
  "daily_batch_fee",
  "return_reversal_fee",
] as const;

const advantageRate = z.enum(advantageRates, { error: `must be one of ${advantageRates.join(", ")}` });
const types = z.array(z.enum(capabilityTypes)).refine((t) => new Set(t).size === t.length, "must not repeat a type");

/** The ISV's `default_capabilities`: every field of every pricing model is required (the reference). */
export const defaultCapabilitiesSchema = z
  .strictObject({
    types,
    options: z.strictObject({
      two_tiered: z.strictObject(fieldsOf(twoTieredFields)),
      pass_through_ic: z.strictObject(fieldsOf(passThroughFields)),
      flat_rate: z.strictObject(fieldsOf(flatRateFields)),
      tiered: z.strictObject(fieldsOf(tieredFields)),
      cash_discount: z.strictObject({ advantage_rate: advantageRate }),
      ach: z.strictObject(fieldsOf(defaultAchFields)),
    }),
  })
  .meta({ id: "DefaultCapabilities" });
export type DefaultCapabilities = z.infer<typeof defaultCapabilitiesSchema>;

/** A merchant's `capabilities`: every option optional; which overrides are allowed is a rule (docs/reference.md section 4). */
export const merchantCapabilitiesSchema = z
  .strictObject({
    types: types.optional(),
    options: z
      .strictObject({
        two_tiered: z.strictObject(fieldsOf(twoTieredFields)).partial().optional(),
        pass_through_ic: z.strictObject(fieldsOf(passThroughFields)).partial().optional(),
        flat_rate: z.strictObject(fieldsOf(flatRateFields)).partial().optional(),
        tiered: z.strictObject(fieldsOf(tieredFields)).partial().optional(),
        cash_discount: z.strictObject({ advantage_rate: advantageRate }).partial().optional(),
        ach: z.strictObject(fieldsOf(merchantAchFields)).partial().optional(),
      })
      .optional(),
  })
  .meta({ id: "Capabilities" });

export const feesSchema = z
  .strictObject({
    monthly: z
      .strictObject({
        minimum_processing_fee: z.number().min(0).max(100000).optional(),
        merchant_advance_service_charge: z.number().min(0).max(100000).optional(),
      })
      .optional(),
  })
  .meta({ id: "Fees" });

const pct = (v: string) => v;
/** What a new ISV starts with; every field of every model is filled so the object is complete. */
export const initialDefaultCapabilities: DefaultCapabilities = {
  types: ["flat_rate", "ach"],
  options: {
    two_tiered: {
      vmd_cp_rate_percent: pct("2.60"),
      vmd_cp_fee_fixed: "0.10",
      vmd_cnp_rate_percent: pct("2.90"),
      vmd_cnp_fee_fixed: "0.30",
      amex_cp_rate_percent: pct("3.00"),
      amex_cp_fee_fixed: "0.10",
      amex_cnp_rate_percent: pct("3.30"),
      amex_cnp_fee_fixed: "0.30",
    },
    pass_through_ic: {
      processor_markup_percent: "0.30",
      transaction_fee_fixed: "0.10",
      vmd_credit_discount_percent: "0.25",
      vmd_credit_fee_fixed: "0.10",
      vmd_debit_discount_percent: "0.15",
      vmd_debit_fee_fixed: "0.05",
      amex_discount_percent: "0.35",
      amex_fee_fixed: "0.10",
    },
    flat_rate: {
      rate_percent: "2.90",
      fee_fixed: "0.30",
      vmd_credit_rate_percent: "2.90",
      vmd_credit_fee_fixed: "0.30",
      vmd_debit_rate_percent: "2.50",
      vmd_debit_fee_fixed: "0.25",
      amex_rate_percent: "3.50",
      amex_fee_fixed: "0.30",
    },
    tiered: {
      vmd_qual_credit_rate_percent: "1.69",
      vmd_midq_credit_rate_percent: "2.49",
      vmd_midq_credit_fee_fixed: "0.10",
      vmd_nonq_credit_rate_percent: "3.29",
      vmd_nonq_credit_fee_fixed: "0.10",
      vmd_qual_debit_rate_percent: "1.29",
      vmd_midq_debit_rate_percent: "1.99",
      vmd_midq_debit_fee_fixed: "0.10",
      vmd_nonq_debit_rate_percent: "2.79",
      vmd_nonq_debit_fee_fixed: "0.10",
      amex_qual_credit_rate_percent: "2.19",
      amex_midq_credit_rate_percent: "2.89",
      amex_midq_credit_fee_fixed: "0.10",
      amex_nonq_credit_rate_percent: "3.59",
      amex_nonq_credit_fee_fixed: "0.10",
      qualified_rate_percent: "1.69",
      qualified_fee_fixed: "0.10",
      mid_qualified_rate_percent: "2.49",
      mid_qualified_fee_fixed: "0.10",
      non_qualified_rate_percent: "3.29",
      non_qualified_fee_fixed: "0.10",
    },
    cash_discount: { advantage_rate: "4.00" },
    ach: {
      txn_fee_fixed: "0.25",
      txn_fee_percent: "0.50",
      return_fee_fixed: "5.00",
      chargeback_fee_fixed: "15.00",
      txn_premium_fee_fixed: "0.50",
      monthly_fee: "10.00",
      daily_batch_fee: "0.10",
      return_reversal_fee: "5.00",
      gross_volume_discount_rate: "0.00",
      premium_discount_rate: "0.00",
    },
  },
};
