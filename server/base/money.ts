import { invalidRequest } from "./error-table";

// Money, in one place. Credits are USD kept to three decimals; code keeps them as integer
// millicredits (1 credit = 1000) so sums and products never pick up binary-float drift. The
// database keeps NUMERIC(12,3) (Prisma Decimal); conversions go through decimal text only.

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

/** NUMERIC(12,3) holds at most 999,999,999.999 credits. */
export const MAX_BALANCE_MILLIS: Millicredits = 999_999_999_999;

/** Anything that prints itself as plain decimal text: Prisma's Decimal (decimal.js) does. */
export type DecimalLike = { toFixed(): string };

const decimalText = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Decimal("1.230") or "1.23" → 1230. Refuses values with non-zero digits past the third decimal. */
export function decimalToMillis(value: DecimalLike | string): Millicredits {
  const text = typeof value === "string" ? value.trim() : value.toFixed();
  const match = decimalText.exec(text);
  if (!match) throw new RangeError(`Not a decimal credit amount: ${text}`);
  const [, sign, whole = "0", fraction = ""] = match;
  if (/[1-9]/.test(fraction.slice(3))) throw new RangeError(`More than three decimals: ${text}`);
  const millis = Number(whole) * 1000 + Number(fraction.slice(0, 3).padEnd(3, "0"));
  if (!Number.isSafeInteger(millis)) throw new RangeError(`Credit amount out of range: ${text}`);
  return sign && millis !== 0 ? -millis : millis;
}

/** 1230 → "1.230", -5 → "-0.005": exact text for a NUMERIC(12,3) parameter. */
export function millisToDecimalString(millis: Millicredits): string {
  if (!Number.isSafeInteger(millis)) throw new RangeError(`Not an integer millicredit amount: ${millis}`);
  const magnitude = Math.abs(millis);
  const whole = Math.floor(magnitude / 1000);
  const fraction = String(magnitude % 1000).padStart(3, "0");
  return `${millis < 0 ? "-" : ""}${whole}.${fraction}`;
}
