/**
 * One fact of a dashboard definition list (label, value), left out when there is no value. `mark`:
 * the value is an id shown as one on purpose (`id`), or words a person typed (`user-text`, shown as
 * typed): neither is read as a raw code that leaked (e2e/helpers.ts expectNoRawCodes).
 */
export function factRow(label: string, value: string | null | undefined, testId?: string, mark?: "id" | "user-text") {
  return value ? (
    <div className="grid gap-x-4 sm:grid-cols-[minmax(0,12rem)_1fr]" data-testid={testId}>
      <dt className="text-muted">{label}</dt>
      <dd
        className={`break-words${mark === "id" ? " font-mono text-sm" : ""}`}
        data-id={mark === "id" ? "" : undefined}
        data-user-text={mark === "user-text" ? "" : undefined}
      >
        {value}
      </dd>
    </div>
  ) : null;
}
