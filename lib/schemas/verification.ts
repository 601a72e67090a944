import { ownerKeys } from "./vocabulary";

// Verification's vocabulary (docs/reference.md section 14): the checks, their states and subjects.
export const checkTypes = ["business", "identity", "bank_account", "sanctions"] as const;
export type CheckType = (typeof checkTypes)[number];
export const checkStatuses = ["pending", "verified", "requires_document", "failed"] as const;
export type CheckStatus = (typeof checkStatuses)[number];
/** Whom a check is about: an owner (identity) or the business (the others). */
export const checkSubjects = ["merchant", ...ownerKeys] as const;
export type CheckSubject = (typeof checkSubjects)[number];
