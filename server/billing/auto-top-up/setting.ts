import type { OneAccount } from "../../base/account-scope";
import type { Db, Tx } from "../../base/db";
import { invalidRequest } from "../../base/error-table";
import { decimalToMillis, formatCredits, MAX_BALANCE_MILLIS, millisToDecimalString, parseCreditsToMillis } from "../../base/money";
import { packSizes, type PackSize } from "../price-catalog";
import { monthlySpentCents } from "./monthly-spend";

// The auto top-up setting: what it is (threshold, pack, monthly cap, card, paused) as the API, the
// CLI and the dashboard show it, and the parse of a new one with errors naming each field.

export type AutoTopUpFields = { threshold: string; pack: string; monthlyCap: string };
/** The API's and the dashboard's field names; the CLI passes its flags' (below, pack, monthly-cap). */
export const API_FIELDS: AutoTopUpFields = { threshold: "threshold", pack: "pack", monthlyCap: "monthly_cap" };

export type AutoTopUpRequest = { threshold: string | number; pack: string | number; monthlyCap: string | number };
export type ParsedAutoTopUp = { thresholdMillis: number; packCredits: PackSize; monthlyCapCents: number };

const usdAmount = /^\d{1,9}(\.\d{1,2})?$/;

export function parseAutoTopUp(request: AutoTopUpRequest, fields: AutoTopUpFields = API_FIELDS): ParsedAutoTopUp {
  const thresholdMillis = parseCreditsToMillis(request.threshold, fields.threshold);
  if (thresholdMillis <= 0 || thresholdMillis > MAX_BALANCE_MILLIS)
    throw invalidRequest(`${fields.threshold} must be a number of credits greater than zero.`, [
      { field: fields.threshold, message: "must be greater than zero" },
    ]);
  const pack = Number(request.pack);
  if (!(packSizes as readonly number[]).includes(pack) || String(request.pack).trim() !== String(pack))
    throw invalidRequest(`${fields.pack} must be one of the pack sizes: ${packSizes.join(", ")}.`, [
      { field: fields.pack, message: `must be one of ${packSizes.join(", ")}` },
    ]);
  const cap = String(request.monthlyCap).trim();
  if (!usdAmount.test(cap) || Number(cap) <= 0)
    throw invalidRequest(`${fields.monthlyCap} must be an amount in USD greater than zero, with at most 2 decimals.`, [
      { field: fields.monthlyCap, message: "must be a positive USD amount" },
    ]);
  return { thresholdMillis, packCredits: pack as PackSize, monthlyCapCents: Math.round(Number(cap) * 100) };
}

export type AutoTopUpView = {
  enabled: boolean;
  /** Credits. */
  threshold: number | null;
  pack: number | null;
  /** USD. */
  monthly_cap: number | null;
  pack_price: number | null;
  spent_this_month: number;
  currency: string;
  paused: boolean;
  pause_reason: string | null;
  consecutive_failures: number;
  last_failure: { reason: string; at: string } | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number } | null;
};

type Row = NonNullable<Awaited<ReturnType<typeof readRow>>>;

const readRow = (client: Db | Tx, accountId: string) => client.autoTopUp.findUnique({ where: { accountId } });

export function viewOf(row: Row | null, spentCents: number): AutoTopUpView {
  const cents = (value: number) => value / 100;
  return {
    enabled: row?.enabled ?? false,
    threshold: row ? formatCredits(decimalToMillis(row.threshold)) : null,
    pack: row?.packCredits ?? null,
    monthly_cap: row ? cents(row.monthlyCapCents) : null,
    pack_price: row ? cents(row.packAmountCents) : null,
    spent_this_month: cents(spentCents),
    currency: row?.currency ?? "usd",
    paused: row?.pausedAt != null,
    pause_reason: row?.pauseReason ?? null,
    consecutive_failures: row?.consecutiveFailures ?? 0,
    last_failure:
      row?.lastFailureReason && row.lastFailureAt ? { reason: row.lastFailureReason, at: row.lastFailureAt.toISOString() } : null,
    card:
      row?.paymentMethodId && row.cardLast4
        ? { brand: row.cardBrand ?? "card", last4: row.cardLast4, exp_month: row.cardExpMonth ?? 0, exp_year: row.cardExpYear ?? 0 }
        : null,
  };
}

export async function showAutoTopUp(client: Db | Tx, scope: OneAccount, now = new Date()): Promise<AutoTopUpView> {
  const [row, spent] = await Promise.all([readRow(client, scope.accountId), monthlySpentCents(client, scope.accountId, now)]);
  return viewOf(row, spent);
}

/** For messages: "below 5 credits, buys the 25-credit pack". */
export const describeSetting = (row: { threshold: { toFixed(): string }; packCredits: number }) =>
  `below ${millisToDecimalString(decimalToMillis(row.threshold))} credits, buys the ${row.packCredits}-credit pack`;
