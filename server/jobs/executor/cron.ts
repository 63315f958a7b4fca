import { Cron } from "croner";

// Cron triggers through croner: standard five-field expressions (minute hour day-of-month month
// day-of-week) with *, lists, ranges, steps, month/day names and @hourly-style macros, plus
// croner's L, W and #. Times are UTC unless the expression starts with "TZ=<IANA zone>" (or
// "CRON_TZ="), as Inngest reads it. Day-of-month and day-of-week both restricted means either may
// match (Vixie cron, Inngest); only a bare "*" or "?" counts as unrestricted, so "*/2" restricts.

const TZ_PREFIX = /^(?:CRON_)?TZ=(\S+)\s+/;
const cache = new Map<string, Cron>();

function schedule(expression: string): Cron {
  const cached = cache.get(expression);
  if (cached) return cached;
  const text = expression.trim();
  const timezone = TZ_PREFIX.exec(text)?.[1] ?? "UTC";
  // "5-part": no seconds or year field (ticks stay on whole minutes); sloppyRanges: "5/15" means
  // 5-59/15, as in Vixie cron and Inngest.
  const cron = new Cron(text.replace(TZ_PREFIX, ""), { timezone, mode: "5-part", sloppyRanges: true, paused: true });
  cache.set(expression, cron);
  return cron;
}

/** The first tick strictly after `after` (epoch ms), on a whole minute. Throws on a bad expression. */
export function nextCronTick(expression: string, after: number): number {
  let next: Date | null;
  try {
    next = schedule(expression).nextRun(new Date(after));
  } catch (error) {
    throw new Error(`cron "${expression}": ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!next) throw new Error(`cron "${expression}" has no tick to come`);
  return next.getTime();
}
