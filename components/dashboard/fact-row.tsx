/** One fact of a dashboard definition list (label, value), left out when there is no value. */
export function factRow(label: string, value: string | null | undefined, testId?: string) {
  return value ? (
    <div className="grid gap-x-4 sm:grid-cols-[minmax(0,12rem)_1fr]" data-testid={testId}>
      <dt className="text-muted">{label}</dt>
      <dd className="break-words">{value}</dd>
    </div>
  ) : null;
}
