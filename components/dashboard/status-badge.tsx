import type { OnboardingStatus } from "@/lib/schemas/application";

const tone: Record<OnboardingStatus | "DEACTIVATED", string> = {
  NOT_STARTED: "border-slate-400 bg-slate-50 text-slate-800",
  IN_PROGRESS: "border-sky-600 bg-sky-50 text-sky-900",
  COMPLETED: "border-amber-600 bg-amber-50 text-amber-900",
  APPROVED: "border-green-700 bg-green-50 text-green-900",
  FAILED: "border-red-700 bg-red-50 text-red-900",
  DEACTIVATED: "border-slate-600 bg-slate-100 text-slate-900",
};

/** A merchant's status as a labelled badge in words (the label is the reader's language). */
export function StatusBadge({ status, label }: { status: OnboardingStatus | "DEACTIVATED"; label: string }) {
  return (
    <span
      data-status={status}
      className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-medium whitespace-nowrap ${tone[status]}`}
    >
      {label}
    </span>
  );
}
