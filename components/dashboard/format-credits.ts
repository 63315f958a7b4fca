// Credits are kept to three decimals: show at least two, never round the third away.
export function formatCredits(value: number | string, options: { grouping?: boolean } = {}): string {
  return Number(value).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 3, useGrouping: options.grouping ?? true });
}
