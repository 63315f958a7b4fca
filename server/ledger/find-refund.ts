import "server-only";
import type { Db } from "../base/db";
import { decimalToMillis, type Millicredits } from "../base/money";

/** The refund booked for a generation, or null when none was: at most one exists. */
export async function findRefundMillis(database: Db, accountId: string, generationId: string): Promise<Millicredits | null> {
  const entry = await database.ledgerEntry.findFirst({ where: { accountId, generationId, type: "refund" }, select: { amount: true } });
  return entry ? decimalToMillis(entry.amount) : null;
}
