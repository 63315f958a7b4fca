// Spend periods, all in UTC: a day from midnight, a week from Monday 00:00, a calendar month, or
// the key's whole life (`total`, which never resets). Pure: callers pass the clock.

export const spendPeriods = ["day", "week", "month", "total"] as const;

export type SpendPeriod = (typeof spendPeriods)[number];

const DAY_MS = 86_400_000;

/** The first instant of the period containing `now`; the epoch for `total`. */
export function periodStart(period: SpendPeriod, now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const midnight = Date.UTC(year, month, now.getUTCDate());
  switch (period) {
    case "day":
      return new Date(midnight);
    case "week":
      // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week.
      return new Date(midnight - ((now.getUTCDay() + 6) % 7) * DAY_MS);
    case "month":
      return new Date(Date.UTC(year, month, 1));
    case "total":
      return new Date(0);
  }
}

/** When the period containing `now` ends and the budget resets; null for `total`. */
export function periodResetsAt(period: SpendPeriod, now: Date): Date | null {
  const start = periodStart(period, now);
  switch (period) {
    case "day":
      return new Date(start.getTime() + DAY_MS);
    case "week":
      return new Date(start.getTime() + 7 * DAY_MS);
    case "month":
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    case "total":
      return null;
  }
}

/** The period's first UTC day as `YYYY-MM-DD`, the key of the daily spend counters. */
export function periodFirstDay(period: SpendPeriod, now: Date): string {
  return periodStart(period, now).toISOString().slice(0, 10);
}
