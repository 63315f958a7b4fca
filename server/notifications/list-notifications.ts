import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";

// The dashboard bell: the account's notifications for this user (account-wide ones have no user),
// newest first, with the unread count. Read state is per user (notification_read), so one owner
// reading an account-wide alert leaves it unread for the others.

export const NOTIFICATIONS_SHOWN = 20;

export type NotificationView = { id: string; kind: string; title: string; body: string; read: boolean; createdAt: Date };

/** The notifications of an account one user may see: the account-wide ones and their own. */
export function visibleNotifications(accountId: string, userId: string): Prisma.NotificationWhereInput {
  return { accountId, OR: [{ userId: null }, { userId }] };
}

export async function listNotifications(
  db: Db,
  scope: OneAccount,
  { userId }: { userId: string },
): Promise<{ items: NotificationView[]; unread: number }> {
  const visible = visibleNotifications(scope.accountId, userId);
  const [rows, unread] = await Promise.all([
    db.notification.findMany({
      where: visible,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: NOTIFICATIONS_SHOWN,
      include: { reads: { where: { userId }, select: { readAt: true } } },
    }),
    db.notification.count({ where: { ...visible, reads: { none: { userId } } } }),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      body: row.body,
      read: row.reads.length > 0,
      createdAt: row.createdAt,
    })),
    unread,
  };
}
