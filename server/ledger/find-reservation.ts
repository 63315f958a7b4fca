import "server-only";
import type { Tx } from "../db";
import { invalidRequest } from "../error-table";
import { getBalance } from "./get-balance";
import { Prisma } from "../generated/prisma/client";
import { queryInTransaction } from "../transaction-sql";
import { decimalToMillis, type Millicredits } from "../money";
import { isGuid } from "../guid";

// Charge and refund both start here: lock the account, then find the generation's reservation
// and whether it was already settled. Exactly one of charge and refund ever follows a reserve.

export type Reservation =
  { state: "not_reserved"; balanceMillis: Millicredits } | { state: "charged" | "refunded" | "open"; balanceMillis: Millicredits; amountMillis: Millicredits; modelIdentifier: string | null };

/**
 * `lockedBalanceMillis`: the balance the caller read while taking the account row lock, in an
 * earlier statement of this transaction (the ledger read below must come after the lock, in a
 * statement of its own, to see what the previous holder committed).
 */
export async function findReservation(tx: Tx, accountId: string, generationId: string, lockedBalanceMillis?: Millicredits): Promise<Reservation> {
  if (!isGuid(generationId)) {
    throw invalidRequest("The generation id must be a UUID.", [{ field: "generation_id", message: "must be a UUID" }]);
  }
  const balanceMillis = lockedBalanceMillis ?? (await getBalance(tx, accountId, { lock: true }));
  // Raw: on every finish, and Prisma's query compiler cost more CPU than the statement.
  const entries = await queryInTransaction<{ type: string; amount: string; modelIdentifier: string | null }>(
    tx,
    Prisma.sql`SELECT type::text AS type, amount::text AS amount, model_identifier AS "modelIdentifier"
                 FROM ledger_entry WHERE account_id = ${accountId}::uuid AND generation_id = ${generationId}::uuid AND type IN ('reserve', 'charge', 'refund')`,
  );
  const reserve = entries.find((entry) => entry.type === "reserve");
  if (!reserve) return { state: "not_reserved", balanceMillis };
  const settled = entries.find((entry) => entry.type !== "reserve");
  const state = settled?.type === "charge" ? "charged" : settled?.type === "refund" ? "refunded" : "open";
  return { state, balanceMillis, amountMillis: decimalToMillis(reserve.amount), modelIdentifier: reserve.modelIdentifier };
}
