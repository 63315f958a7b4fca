import type { Db } from "../base/db";
import { decimalToMillis, type Millicredits } from "../base/money";

// Spend of one budget (a key lineage's budget id, or the account id) from a UTC day on: the sum
// of its daily counters. Read under the account row lock when it decides a create.

export async function readSpend(db: Db, budgetId: string, fromDay: string): Promise<Millicredits> {
  const [row] = await db.$queryRaw<Array<{ used: string }>>`
    SELECT coalesce(sum(used), 0)::text AS used FROM spend_counter WHERE budget_id = ${budgetId}::uuid AND day >= ${fromDay}::date`;
  return decimalToMillis(row?.used ?? "0");
}
