import type { Millicredits } from "../catalog/money";

// The database keeps credits as NUMERIC(12,3) (Prisma Decimal); code keeps integer millicredits.
// These convert between the two through decimal text only, never through binary floats.

export type { Millicredits } from "../catalog/money";

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
