// Kept out of the "use client" component so server code (emails, logs) can format the same way.
const units: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago" / "in 2 hours"; anything within 45 s is "now". */
export function formatRelative(time: number, now: number = Date.now(), format: Intl.RelativeTimeFormatStyle = "long"): string {
  const formatter = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: format });
  const seconds = (time - now) / 1000;
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return formatter.format(Math.round(seconds / size), unit);
  }
  return Math.abs(seconds) < 45 ? formatter.format(0, "second") : formatter.format(Math.round(seconds), "second");
}
