import { documentFinding, type StoredCheck } from "../verification/checks";
import type { Decision } from "./rules";

/**
 * The rules' decision with the checks': a decline stands; a failed check (a sanctions match, a
 * document refused twice) sends to manual review with its reason; a document asked for joins the
 * information the rules request; otherwise the rules decide.
 */
export function combine(decision: Decision, checks: StoredCheck[]): Decision {
  if (decision.outcome === "decline") return decision;
  const failed = checks.filter((c) => c.status === "failed").map((c) => c.message ?? `${c.type} check failed`);
  if (decision.outcome === "manual_review" || failed.length)
    return {
      outcome: "manual_review",
      reason: [...(decision.outcome === "manual_review" ? [decision.reason] : []), ...failed].join(" "),
    };
  const documents = checks.map(documentFinding).filter((f) => f !== null);
  if (decision.outcome === "request_information" || documents.length)
    return {
      outcome: "request_information",
      findings: [...(decision.outcome === "request_information" ? decision.findings : []), ...documents],
    };
  return decision;
}
