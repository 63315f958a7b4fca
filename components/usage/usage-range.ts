// The usage page's range (?days=): one of the four offered, 30 by default.

export const usageRanges = [1, 7, 30, 90] as const;
export type UsageRange = (typeof usageRanges)[number];

export function readUsageRange(value: string | string[] | null | undefined): UsageRange {
  const days = Number(Array.isArray(value) ? value[0] : value);
  return usageRanges.find((range) => range === days) ?? 30;
}
