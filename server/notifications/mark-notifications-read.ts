import "server-only";
import { db } from "../base/db";
import { visibleNotifications } from "./list-notifications";
import { isGuid } from "../base/guid";

// Marks some (or, without ids, all) of the user's visible notifications of one account as read,
// for that user only. Ids of other accounts or users are ignored: the filter is the permission check.

export async function markNotificationsRead(input: {
  accountId: string;
  userId: string;
  ids?: readonly string[];
}): Promise<{ marked: number }> {
  const ids = input.ids?.filter((id) => isGuid(id));
  if (ids && ids.length === 0) return { marked: 0 };
  const unread = await db.notification.findMany({
    where: {
      ...visibleNotifications(input.accountId, input.userId),
      reads: { none: { userId: input.userId } },
      ...(ids ? { id: { in: ids } } : {}),
    },
    select: { id: true },
  });
  if (unread.length === 0) return { marked: 0 };
  // skipDuplicates: a second tab marking the same ones at once counts each only once.
  const { count } = await db.notificationRead.createMany({
    data: unread.map((row) => ({ notificationId: row.id, userId: input.userId })),
    skipDuplicates: true,
  });
  return { marked: count };
}
