import "server-only";
import { touchAccountRow } from "../accounts/touch-account-row";
import { recordActivity } from "../activity/record-activity";
import {
  formatCredits,
  parseCreditsToMillis,
  decimalToMillis,
  MAX_BALANCE_MILLIS,
  millisToDecimalString,
  type Millicredits,
} from "../base/money";
import { getBalance } from "../ledger/get-balance";
import { accountScope, type OneAccount } from "../base/account-scope";
import type { Db, Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import { isGuid } from "../base/guid";

// Low-balance thresholds: up to 10 positive amounts with at most 3 decimals per
// account, default one at 0.50 (createAccount), replaced as a whole by the primary owner only.

export const MAX_THRESHOLDS = 10;

export type AlertThresholdView = {
  /** Credits, exact to 3 decimals. */
  amount: number;
  /** False after it fired, until an add or refund lifts the balance back to it. */
  armed: boolean;
  lastFiredAt: Date | null;
};

/** Validates and de-duplicates ("1", "1.0" and 1 are one threshold); highest first. */
export function parseThresholdAmounts(amounts: ReadonlyArray<string | number>): Millicredits[] {
  if (!Array.isArray(amounts))
    throw invalidRequest("Thresholds must be a list of amounts.", [{ field: "thresholds", message: "must be a list" }]);
  const unique = new Set<Millicredits>();
  amounts.forEach((amount, index) => {
    const field = `thresholds[${index}]`;
    if (typeof amount !== "string" && typeof amount !== "number")
      throw invalidRequest(`${field} must be an amount.`, [{ field, message: "must be an amount" }]);
    const millis = parseCreditsToMillis(amount, field);
    if (millis <= 0) throw invalidRequest(`${field} must be positive.`, [{ field, message: "must be positive" }]);
    if (millis > MAX_BALANCE_MILLIS) throw invalidRequest(`${field} is too large.`, [{ field, message: "is too large" }]);
    unique.add(millis);
  });
  if (unique.size > MAX_THRESHOLDS) {
    throw invalidRequest(`At most ${MAX_THRESHOLDS} low-balance thresholds are allowed.`, [
      { field: "thresholds", message: `at most ${MAX_THRESHOLDS} distinct amounts` },
    ]);
  }
  return [...unique].sort((a, b) => b - a);
}

/** Alerts belong to the primary owner: owners, members and strangers get ERR1003. */
export async function assertPrimaryOwner(tx: Db, accountId: string, userId: string): Promise<void> {
  const refusal = new ApiError("ERR1003", "Only the primary owner may change low-balance alerts.");
  if (!isGuid(accountId) || !isGuid(userId)) throw refusal;
  const membership = await tx.membership.findUnique({ where: { accountId_userId: { accountId, userId } }, select: { role: true } });
  if (membership?.role !== "primary_owner") throw refusal;
}

/** The account's thresholds, highest first. */
export async function getThresholds(db: Db, scope: OneAccount): Promise<AlertThresholdView[]> {
  const { accountId } = scope;
  if (!isGuid(accountId)) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
  const rows = await db.alertThreshold.findMany({ where: { accountId }, select: { amount: true, armed: true, lastFiredAt: true } });
  return rows
    .map((row) => ({ millis: decimalToMillis(row.amount), armed: row.armed, lastFiredAt: row.lastFiredAt }))
    .sort((a, b) => b.millis - a.millis)
    .map(({ millis, armed, lastFiredAt }) => ({ amount: formatCredits(millis), armed, lastFiredAt }));
}

export type SetThresholdsInput = { accountId: string; amounts: ReadonlyArray<string | number>; actorUserId: string };

/**
 * Replaces the list. An empty list turns alerts off. Amounts already on the list keep their state
 * (a fired threshold stays fired). A new threshold is armed only when the balance is at or above
 * it: one the balance is already below does not fire retroactively on save, and fires after the
 * balance has been lifted to it and drops below again (the same rule as re-arming).
 */
export async function setThresholds(tx: Tx, input: SetThresholdsInput): Promise<AlertThresholdView[]> {
  const { accountId, actorUserId } = input;
  await assertPrimaryOwner(tx, accountId, actorUserId);
  const wanted = parseThresholdAmounts(input.amounts);

  // The account row lock orders this against every ledger movement (they evaluate thresholds under it).
  const balance = await getBalance(tx, accountId, { lock: true });
  // And the row written: a create in one statement must see the thresholds changed (touch-account-row.ts).
  await touchAccountRow(tx, accountId);
  const existing = await tx.alertThreshold.findMany({ where: { accountId }, select: { id: true, amount: true } });
  const existingMillis = new Map(existing.map((row) => [decimalToMillis(row.amount), row.id]));
  const removedIds = [...existingMillis].filter(([millis]) => !wanted.includes(millis)).map(([, id]) => id);
  const added = wanted.filter((millis) => !existingMillis.has(millis));

  if (removedIds.length > 0) await tx.alertThreshold.deleteMany({ where: { id: { in: removedIds } } });
  if (added.length > 0) {
    await tx.alertThreshold.createMany({
      data: added.map((millis) => ({ accountId, amount: millisToDecimalString(millis), armed: balance >= millis })),
    });
  }

  const previous = [...existingMillis.keys()].sort((a, b) => b - a);
  await recordActivity(tx, {
    accountId,
    actor: actorUserId,
    category: "notification",
    action: "alert.thresholds_updated",
    description:
      wanted.length > 0 ? `Low-balance alerts set to ${wanted.map(millisToDecimalString).join(", ")}` : "Low-balance alerts turned off",
    metadata: { thresholds: wanted.map(formatCredits), previous: previous.map(formatCredits) },
  });
  return getThresholds(tx, accountScope(accountId));
}
