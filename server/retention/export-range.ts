import "server-only";
import { invalidRequest } from "../base/error-table";
import { planLimits, type PlanName } from "../plans/plan-limits";
import { retentionCutoffs } from "./retention-windows";

// The range an export may ask for: `from` and `to` are inclusive UTC dates (YYYY-MM-DD), `to`
// today by default, never after today, and `from` no earlier than the day the plan's retention
// window of that data starts (that day's first hours may already be purged). Anything else is
// ERR1001 naming the field.

export type ExportRange = {
  /** Inclusive UTC dates, YYYY-MM-DD. */
  from: string;
  to: string;
  /** from 00:00 UTC, inclusive. */
  start: Date;
  /** The day after `to`, 00:00 UTC: exclusive. */
  end: Date;
};

export type ExportRangeInput = { from?: string; to?: string };

/** Which retention window bounds the range: generation records (usage) or activity events. */
export type RetainedData = "generations" | "activity";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const utcDate = (at: Date) => at.toISOString().slice(0, 10);

function parseDate(value: string, field: string): Date {
  const match = DATE.exec(value);
  const at = match ? new Date(`${value}T00:00:00.000Z`) : null;
  // Date accepts 2026-02-30 (as March 2); the round trip does not.
  if (!at || Number.isNaN(at.getTime()) || utcDate(at) !== value)
    throw invalidRequest(`${field} must be a date as YYYY-MM-DD.`, [{ field, message: "must be a date as YYYY-MM-DD (UTC)" }]);
  return at;
}

export function exportRange(
  input: ExportRangeInput,
  options: { plan: PlanName; data: RetainedData; now?: Date; fromRequired: boolean },
): ExportRange {
  const now = options.now ?? new Date();
  const today = utcDate(now);
  const earliest = utcDate(retentionCutoffs(options.plan, now)[options.data]);
  const days = planLimits[options.plan].retention[options.data] / 86_400;
  const kept = options.data === "generations" ? "generation records" : "activity events";

  const fromText = input.from?.trim() || undefined;
  const toText = input.to?.trim() || undefined;
  if (!fromText && options.fromRequired)
    throw invalidRequest("from is required.", [{ field: "from", message: "is required (YYYY-MM-DD)" }]);
  const end = parseDate(toText ?? today, "to");
  const start = fromText ? parseDate(fromText, "from") : parseDate(earliest, "from");
  const from = utcDate(start);
  const to = utcDate(end);
  if (to > today) throw invalidRequest("to must not be after today (UTC).", [{ field: "to", message: `must not be after ${today}` }]);
  if (from > to) throw invalidRequest("from must not be after to.", [{ field: "from", message: `must not be after ${to}` }]);
  if (from < earliest)
    throw invalidRequest(
      `from must be on or after ${earliest}: the ${options.plan} plan keeps ${kept} for ${days} day${days === 1 ? "" : "s"}.`,
      [{ field: "from", message: `must be on or after ${earliest} (the plan's retention)` }],
    );
  return { from, to, start, end: new Date(end.getTime() + DAY_MS) };
}
