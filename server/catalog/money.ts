import { invalidRequest } from "../http/errors";

// Credits are USD kept to three decimals. Amounts live as integer millicredits
// (1 credit = 1000) so sums and products never pick up binary-float drift.

/** An integer count of thousandths of a credit. */
export type Millicredits = number;

export const MILLIS_PER_CREDIT = 1000;

const creditsPattern = /^(\d+)(?:\.(\d{1,3}))?$/;

/** "1.234" or 1.234 → 1234; rejects negatives, NaN, exponents and more than three decimals. */
export function parseCreditsToMillis(value: string | number, field = "amount"): Millicredits {
  // String(number) is the shortest round-trip form, so 0.1 + 0.2 shows its drift and is refused.
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = creditsPattern.exec(text);
  if (!match) {
    throw invalidRequest(`${field} must be a non-negative amount with at most 3 decimals.`, [
      { field, message: "must be a non-negative amount with at most 3 decimals" },
    ]);
  }
  const whole = Number(match[1]);
  const thousandths = Number((match[2] ?? "").padEnd(3, "0"));
  const millis = whole * MILLIS_PER_CREDIT + thousandths;
  if (!Number.isSafeInteger(millis)) {
    throw invalidRequest(`${field} is too large.`, [{ field, message: "is too large" }]);
  }
  return millis;
}

/** 1234 → 1.234. Integer ÷ 1000 is correctly rounded, so it prints as the exact decimal. */
export function formatCredits(millis: Millicredits): number {
  if (!Number.isSafeInteger(millis)) throw new RangeError(`Not an integer millicredit amount: ${millis}`);
  return millis / MILLIS_PER_CREDIT;
}

/** Catalog prices are written in USD for reading; a typo with four decimals fails at load. */
export function usd(amount: string): Millicredits {
  return parseCreditsToMillis(amount, "catalog price");
}
