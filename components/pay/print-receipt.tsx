"use client";

/** "Print or save this receipt": the browser's print dialog (where "Save as PDF" is too); not printed itself. */
export function PrintReceipt({ label }: { label: string }) {
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="mt-4 min-h-[44px] rounded-lg border border-green-800 bg-white px-4 py-2 font-semibold text-green-950 print:hidden"
    >
      {label}
    </button>
  );
}
