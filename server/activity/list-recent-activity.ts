import "server-only";
import { db } from "../db";

// The newest audit events of an account, for the overview's "Recent activity" card.
export async function listRecentActivity(accountId: string, limit = 8) {
  const rows = await db.activityEvent.findMany({
    where: { accountId },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 1), 50),
    select: { id: true, actor: true, category: true, action: true, description: true, createdAt: true },
  });
  return rows;
}
