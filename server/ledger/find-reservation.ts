import "server-only";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { getBalance } from "./get-balance";
import { Prisma } from "../base/generated/prisma/client";
import { queryInTransaction } from "../base/transaction-sql";
import { decimalToMillis, type Millicredits } from "../base/money";
import { isGuid } from "../base/guid";

// Charge and refund both start here: lock the account, then find the generation's reservation
// and whether it was already settled. Exactly one of charge and refund ever follows a reserve.

export type Reservation =
  | { state: "not_reserved"; balanceMillis: Millicredits }
  | { state: "charged" | "refunded" | "open"; balanceMillis: Millicredits; amountMillis: Millicredits; modelIdentifier: string | null };

/** The account locked first; the ledger read after the lock, in a statement of its own, sees what the previous holder committed. */
export async function findReservation(tx: Tx, accountId: string, generationId: string): Promise<Reservation> {
  if (!isGuid(generationId)) {
    throw invalidRequest("The generation id must be a UUID.", [{ field: "generation_id", message: "must be a UUID" }]);
  }
  const balanceMillis = await getBalance(tx, accountId, { lock: true });
  // Raw: on every finish, and Prisma's query compiler cost more CPU than the statement.
  const entries = await queryInTransaction<{ type: string; amount: string; modelIdentifier: string | null }>(
    tx,
    Prisma.sql`SELECT type::text AS type, amount::text AS amount, model_identifier AS "modelIdentifier"
                 FROM ledger_entry WHERE account_id = ${accountId}::uuid AND generation_id = ${generationId}::uuid AND type IN ('reserve', 'charge', 'refund')`,
  );
  const reserve = entries.find((entry) => entry.type === "reserve");
  const settled = entries.find((entry) => entry.type !== "reserve");
  return reservationOf(balanceMillis, reserve ?? null, settled?.type ?? null);
}

/**
 * The same answer from values the caller read itself: the reserve entry's amount and model, and
 * the type of the entry that settled it (`charge`, `refund`) or null.
 */
export function reservationOf(
  balanceMillis: Millicredits,
  reserve: { amount: string; modelIdentifier: string | null } | null,
  settledBy: string | null,
): Reservation {
  if (!reserve) return { state: "not_reserved", balanceMillis };
  const state = settledBy === "charge" ? "charged" : settledBy === "refund" ? "refunded" : "open";
  return { state, balanceMillis, amountMillis: decimalToMillis(reserve.amount), modelIdentifier: reserve.modelIdentifier };
}
