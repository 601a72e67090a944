import { eventTypes } from "../../events/catalogue";

// Every action an audit entry may name (docs/reference.md section 17): each event type (a change
// that writes an event is audited by the event's own statement) and the changes that write none.
// The dashboard shows each in the reader's words (dashboard.auditActions in lib/i18n/messages).
export const nonEventActions = [
  "account.created",
  "account_session.created",
  "account.updated",
  "account.custom_domain_verified",
  "account.cost_profile_updated",
  "account.payout_bank_account_changed",
  "account.payouts_frozen",
  "account.payouts_unfrozen",
  "api_key.created",
  "api_key.rotated",
  "api_key.revoked",
  "file.created",
  "login_link.created",
  "member.invited",
  "member.invitation_revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.sessions_ended",
  "member.factor_added",
  "member.factor_removed",
  "member.recovery_codes_renewed",
  "member.factors_reset",
  "merchant.signed_in",
  "merchant.sessions_revoked",
  "merchant.payouts_unfrozen",
  "merchant.bank_account_approved",
  "onboarding_link.created",
  "report.created",
  "webhook.created",
  "webhook.deleted",
  "webhook_delivery.retried",
] as const;

export type AuditAction = (typeof eventTypes)[number] | (typeof nonEventActions)[number];

export const auditActions: readonly AuditAction[] = [...eventTypes, ...nonEventActions];

export const isAuditAction = (value: string): value is AuditAction =>
  (auditActions as readonly string[]).includes(value);
