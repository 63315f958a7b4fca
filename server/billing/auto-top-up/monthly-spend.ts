import type { Db, Tx } from "../../base/db";

// What auto top-up spent in the calendar month (UTC) of `now`, in cents: the orders charged or
// being charged (processing, fulfilled, held for review, disputed). Declined, canceled and
// refunded ones cost nothing. The cap is checked against it under the account's row lock.

export const SPENDING_STATUSES = ["processing", "fulfilled", "manual_review", "disputed"] as const;

export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function monthlySpentCents(client: Db | Tx, accountId: string, now: Date, exceptOrderId?: string): Promise<number> {
  const spent = await client.order.aggregate({
    where: {
      accountId,
      kind: "auto_top_up",
      status: { in: [...SPENDING_STATUSES] },
      createdAt: { gte: monthStart(now) },
      ...(exceptOrderId ? { id: { not: exceptOrderId } } : {}),
    },
    _sum: { amountCents: true },
  });
  return spent._sum.amountCents ?? 0;
}
