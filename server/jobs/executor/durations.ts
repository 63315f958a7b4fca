// Time strings of the wire protocol ("300ms", "2h45m", or an ISO 8601 date; SDK_SPEC §1.3.2) and
// the retry timing: a RetryAfterError's date or seconds when given, else exponential backoff.

const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const durationPattern = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|w))+$/;
const partPattern = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)/g;

/** Milliseconds of a time string such as "1s" or "2h45m"; null when it is not one. */
export function parseDuration(value: string): number | null {
  const text = value.trim();
  if (!durationPattern.test(text)) return null;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(partPattern)) total += Number(amount) * (unitMs[unit as string] ?? 0);
  return total;
}

/** The instant a sleep or timeout given as a time string or an ISO date ends. */
export function resolveTime(value: unknown, now: number): number {
  if (typeof value === "number" && Number.isFinite(value)) return now + value;
  if (typeof value !== "string" || value.trim() === "") return now;
  const duration = parseDuration(value);
  if (duration !== null) return now + duration;
  const date = Date.parse(value);
  if (Number.isFinite(date)) return date;
  throw new Error(`not a time string or date: ${value}`);
}

/** Retry-After from the SDK: a number of seconds or an RFC 3339 date (SDK_SPEC §4.1.1). */
export function retryAfterTime(retryAfter: string | null, now: number): number | null {
  if (!retryAfter) return null;
  const text = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return now + Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? date : null;
}

/** Default backoff after the n-th failed attempt: 1 s, 2 s, 4 s … capped at 5 minutes, ±10 %. */
export function defaultRetryBackoff(failedAttempts: number): number {
  const base = Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), 300_000);
  return Math.round(base * (0.9 + Math.random() * 0.2));
}
