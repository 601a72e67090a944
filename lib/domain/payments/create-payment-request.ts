import { and, eq } from "drizzle-orm";

import type { Principal } from "../../auth/principal";
import { hostedBaseUrl } from "../../branding/hosts";
import { clock } from "../../clock";
import type { AccountRow, CustomerRow, MerchantRow, PaymentRequestRow } from "../../db/schema";
import { paymentRequests } from "../../db/schema";
import { type Db, type Tx } from "../../db/types";
import { AppError, type FieldError, invalidFields, notFound } from "../../errors";
import { createId } from "../../ids";
import { enqueueJob } from "../../jobs/job-types";
import { businessName, merchantLocale } from "../../merchants/facts";
import { invoiceEmail, invoiceSms } from "../../notifications/payment-templates";
import { queueEmail } from "../../notifications/send-email";
import { smsSender } from "../../notifications/send-sms";
import { requestTotal } from "../../payments/total";
import { paymentProcessor } from "../../processors";
import { type AmountsInput } from "../../schemas/payment-requests";
import { type PlatformFeeInput } from "../../schemas/platform-fees";
import { payPageUrl, serializePaymentRequest } from "../../serializers/payment-request";
import { getAccount } from "../accounts/get-account";
import { brandOf } from "../accounts/isv-facts";
import { findCustomer } from "../customers/customers";
import { recordEvent } from "../events/record-event";
import { isRealPhone, normalizePhone } from "../merchants/application";
import { assertCanTakePayments, findScopedMerchant, paymentScope, type Scope } from "../scope";
import { resolveAmounts } from "./amounts";
import { expireIfDue } from "./expire-payment-request";
import { platformFeeOf } from "./platform-fee-of";
import { claimedUntil } from "./request-claim";
import { pastDeadline } from "./status";
import { insertRequest } from "./writes";

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
const DEFAULT_TERMINAL_DEADLINE_S = 300;

export type CreatePaymentRequestInput =
  | ({ type: "SCAN_TO_PAY" } & AmountsInput)
  | ({ type: "MANUAL"; description?: string } & AmountsInput)
  | ({
      type: "INVOICE";
      email_address?: string;
      phone_number?: string;
      /** The reference's spelling; `send_via` (the answer's) is taken too: one of them, or both alike. */
      sendVia?: "none" | "text" | "email" | "both";
      send_via?: "none" | "text" | "email" | "both";
      send_sms?: boolean;
      send_email?: boolean;
      description?: string;
    } & AmountsInput)
  | {
      type: "TERMINAL";
      merchant_id: string;
      terminal_id: string;
      amount: number;
      tax?: number;
      tip?: number;
      signature_required?: boolean;
      debit?: boolean;
      deadline_seconds?: number;
      platform_fee?: PlatformFeeInput;
    };

/**
 * POST /v1/terminal, /v1/scan_to_pay, /v1/invoice, /v1/manual (docs/reference.md section 10): checks
 * the caller may take payments for the merchant, resolves the amounts, and writes the request, its
 * `payment_request.created` event, its expiry job and (for an invoice) its messages in one
 * transaction.
 */
export async function createPaymentRequest(db: Db, principal: Principal, input: CreatePaymentRequestInput) {
  return createScopedPaymentRequest(db, await paymentScope(db, principal), input);
}

/** The same, for a caller whose payment scope is already known (the merchant's home: its own merchant). */
export async function createScopedPaymentRequest(
  db: Db,
  scope: Scope,
  input: CreatePaymentRequestInput,
  options: {
    customerId?: string;
    /** A subscription's invoice (section 21): the period it bills, and how long it stays payable. */
    subscription?: { id: string; periodStart: Date };
    /** The payment link whose visit made it. */
    paymentLinkId?: string;
    expiresAt?: Date;
    /**
     * What the caller read under the same scope in its own transaction, written in that transaction
     * (a subscription's renewal, lib/domain/subscriptions/renew.ts): the merchant, its ISV and the
     * customer are not read again, and no nested transaction (a savepoint) is taken.
     */
    known?: { tx: Tx; merchant: MerchantRow; isv: AccountRow; customer?: CustomerRow };
    /**
     * Made held for a payment the caller starts at once (a renewal's charge: payRequest with
     * `claimed`), as claimRequest would hold it: nobody else can have it before, so no claim follows.
     */
    claimed?: boolean;
  } = {},
) {
  const known = options.known;
  const merchant =
    known &&
    known.merchant.id === input.merchant_id &&
    known.merchant.isvAccountId === scope.isvAccountId &&
    (!scope.merchantId || scope.merchantId === known.merchant.id)
      ? known.merchant
      : await findScopedMerchant(db, scope, input.merchant_id);
  assertCanTakePayments(merchant);
  // The customer the request is for: the merchant's own (another's, or one deleted, is no such customer).
  const customerId = options.customerId ?? ("customer" in input ? input.customer : undefined);
  if (customerId) {
    const customer =
      known?.customer?.id === customerId && !known.customer.deletedAt
        ? known.customer
        : await findCustomer(db, scope, customerId);
    if (customer.merchantId !== merchant.id) throw notFound("customer", customerId, "customer");
  }
  // A request nobody can pay is not made: production refuses until a gateway is configured (403 payments_not_configured).
  paymentProcessor();

  const resolved = resolveAmounts(input);
  const errors: FieldError[] = resolved.ok ? [] : [...resolved.errors];
  const extra = typeSpecific(input, merchant, errors);
  if (errors.length || !resolved.ok) throw invalidFields(errors);
  const amounts = resolved.value;
  // The ISV's row, read once: its fee rules here, its branding and host in the transaction below.
  const isv = known?.isv.id === merchant.isvAccountId ? known.isv : await getAccount(db, merchant.isvAccountId);
  const platformFee = platformFeeOf(scope, merchant, input, isv, {
    total: requestTotal(amounts),
  });

  const write = async (tx: Tx) => {
    const now = clock.now();
    if (input.type === "TERMINAL") {
      // A request past its deadline no longer holds the terminal, even before its expiry job ran.
      const [stale] = await tx
        .select({ id: paymentRequests.id })
        .from(paymentRequests)
        .where(
          and(eq(paymentRequests.terminalId, input.terminal_id), eq(paymentRequests.status, "PENDING"), pastDeadline),
        );
      if (stale) await expireIfDue(tx, stale.id, isv);
    }
    const [row] = await insertRequest(tx, {
      id: createId("pr"),
      isvAccountId: merchant.isvAccountId,
      merchantId: merchant.id,
      paymentType: input.type,
      status: "PENDING",
      amount: amounts.amount,
      tax: amounts.tax,
      tip: amounts.tip,
      items: amounts.items,
      taxPercent: amounts.taxPercent,
      platformFee,
      createdAt: now,
      expiresAt:
        options.expiresAt ??
        new Date(
          now.getTime() +
            (input.type === "TERMINAL"
              ? (input.deadline_seconds ?? DEFAULT_TERMINAL_DEADLINE_S) * 1000
              : SEVEN_DAYS_MS),
        ),
      ...extra,
      customerId: customerId ?? null,
      subscriptionId: options.subscription?.id ?? null,
      subscriptionPeriodStart: options.subscription?.periodStart ?? null,
      paymentLinkId: options.paymentLinkId ?? null,
      sentAt: input.type === "INVOICE" && input.sendVia !== "none" ? now : null,
      lockedUntil: options.claimed ? claimedUntil() : null,
    } satisfies typeof paymentRequests.$inferInsert);
    if (!row)
      throw new AppError(
        "terminal_busy",
        `Terminal ${input.type === "TERMINAL" ? input.terminal_id : ""} already has an open payment request: wait for it, or cancel it`,
      );

    const base = hostedBaseUrl(isv);
    await recordEvent(tx, {
      accountId: row.isvAccountId,
      type: "payment_request.created",
      objectId: row.id,
      data: serializePaymentRequest(row, base),
    });
    await enqueueJob(tx, "payment_request_expiry", { payment_request_id: row.id }, { runAt: row.expiresAt });
    if (input.type === "INVOICE") await sendInvoice(tx, row, merchant, isv);
    return { row, base };
  };
  return known ? write(known.tx) : db.transaction(write);
}

type Extra = Partial<typeof paymentRequests.$inferInsert>;

function typeSpecific(input: CreatePaymentRequestInput, merchant: MerchantRow, errors: FieldError[]): Extra {
  switch (input.type) {
    case "SCAN_TO_PAY":
      return {};
    case "MANUAL":
      return { description: input.description || null };
    case "TERMINAL":
      if (!merchant.payment.terminal_id || merchant.payment.terminal_id !== input.terminal_id) {
        errors.push({
          param: "terminal_id",
          code: "terminal_unknown",
          message: `terminal_id '${input.terminal_id}' is not one of this merchant's terminals`,
        });
      }
      return {
        terminalId: input.terminal_id,
        signatureRequired: input.signature_required ?? false,
        debit: input.debit ?? true,
      };
    case "INVOICE": {
      // `sendVia` (the reference's name) or `send_via` (the answer's): said once, or twice alike.
      const sendVia = input.sendVia ?? input.send_via ?? "none";
      if (input.sendVia === undefined && input.send_via === undefined)
        errors.push({
          param: "send_via",
          code: "parameter_missing",
          message: "send_via is required: none, text, email or both (sendVia, the older spelling, is taken too)",
        });
      else if (input.sendVia !== undefined && input.send_via !== undefined && input.sendVia !== input.send_via)
        errors.push({
          param: "send_via",
          code: "parameter_invalid",
          message: `send_via ('${input.send_via}') and sendVia ('${input.sendVia}') are one choice: send one, or both alike`,
        });
      const byEmail = sendVia === "email" || sendVia === "both";
      const bySms = sendVia === "text" || sendVia === "both";
      if (input.send_email !== undefined && input.send_email !== byEmail) {
        errors.push({
          param: "send_email",
          code: "parameter_invalid",
          message: `send_email (${input.send_email}) contradicts send_via '${sendVia}'`,
        });
      }
      if (input.send_sms !== undefined && input.send_sms !== bySms) {
        errors.push({
          param: "send_sms",
          code: "parameter_invalid",
          message: `send_sms (${input.send_sms}) contradicts send_via '${sendVia}'`,
        });
      }
      if (byEmail && !input.email_address)
        errors.push({
          param: "email_address",
          code: "parameter_missing",
          message: `email_address is required when send_via is '${sendVia}'`,
        });
      if (bySms && !input.phone_number)
        errors.push({
          param: "phone_number",
          code: "parameter_missing",
          message: `phone_number is required when send_via is '${sendVia}'`,
        });
      if (input.phone_number && !isRealPhone(input.phone_number)) {
        errors.push({
          param: "phone_number",
          code: "parameter_invalid",
          message: "phone_number must be a real phone number in E.164 (+14155550123)",
        });
      }
      return {
        description: input.description || null,
        sendVia,
        emailAddress: input.email_address ?? null,
        phoneNumber: input.phone_number && isRealPhone(input.phone_number) ? normalizePhone(input.phone_number) : null,
      };
    }
  }
}

async function sendInvoice(tx: Tx, row: PaymentRequestRow, merchant: MerchantRow, isv: AccountRow) {
  const brand = brandOf(isv);
  const locale = merchantLocale(merchant);
  const payUrl = payPageUrl(hostedBaseUrl(isv), row.id);
  const total = requestTotal(row);
  const business = businessName(merchant) || brand.display_name;
  if ((row.sendVia === "email" || row.sendVia === "both") && row.emailAddress) {
    const message = invoiceEmail({
      brand,
      locale,
      business,
      subtotal: row.amount,
      tax: row.tax,
      tip: row.tip,
      total,
      items: row.items,
      description: row.description,
      payUrl,
    });
    await queueEmail(tx, {
      accountId: row.isvAccountId,
      merchantId: row.merchantId,
      kind: "payment_request.invoice",
      to: row.emailAddress,
      locale,
      ...message,
    });
  }
  if ((row.sendVia === "text" || row.sendVia === "both") && row.phoneNumber) {
    await smsSender.queue(tx, {
      accountId: row.isvAccountId,
      merchantId: row.merchantId,
      kind: "payment_request.invoice",
      to: row.phoneNumber,
      locale,
      text: invoiceSms({ locale, business, total, payUrl }),
    });
  }
}
