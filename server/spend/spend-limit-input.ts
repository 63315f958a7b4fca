import { invalidRequest } from "../base/error-table";
import { MAX_BALANCE_MILLIS, parseCreditsToMillis, type Millicredits } from "../base/money";
import { spendPeriods, type SpendPeriod } from "./periods";

// A spend limit as people write it: credits with at most 3 decimals, or `none` to clear it.

/** "12.5" → 12500, "none" → null; anything else is ERR1001 naming `field`. */
export function parseSpendLimit(value: string | number | null, field = "spend_limit"): Millicredits | null {
  if (value === null || (typeof value === "string" && value.trim().toLowerCase() === "none")) return null;
  const millis = parseCreditsToMillis(value, field);
  if (millis > MAX_BALANCE_MILLIS) throw invalidRequest(`${field} is too large.`, [{ field, message: "is too large" }]);
  return millis;
}

export function parseSpendPeriod(value: string, field = "spend_period"): SpendPeriod {
  if (!(spendPeriods as readonly string[]).includes(value)) {
    throw invalidRequest(`${field} must be one of ${spendPeriods.join(", ")}.`, [
      { field, message: `must be one of ${spendPeriods.join(", ")}` },
    ]);
  }
  return value as SpendPeriod;
}
