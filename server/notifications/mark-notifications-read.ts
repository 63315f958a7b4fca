import "server-only";
import { z } from "zod";
import { db } from "../db";

// Marks some (or, without ids, all) of the user's visible notifications of one account as read.
// Ids of other accounts or users are ignored: the filter is the permission check.

export async function markNotificationsRead(input: { accountId: string; userId: string; ids?: readonly string[] }): Promise<{ marked: number }> {
  const ids = input.ids?.filter((id) => z.guid().safeParse(id).success);
  if (ids && ids.length === 0) return { marked: 0 };
  const { count } = await db.notification.updateMany({
    where: { accountId: input.accountId, OR: [{ userId: null }, { userId: input.userId }], readAt: null, ...(ids ? { id: { in: ids } } : {}) },
    data: { readAt: new Date() },
  });
  return { marked: count };
}
