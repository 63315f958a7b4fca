import "server-only";
import { db } from "../db";

// The dashboard bell: the account's notifications for this user (account-wide ones have no user),
// newest first, with the unread count. Read state is kept per notification, so one owner reading
// an account-wide alert marks it read for the account.

export const NOTIFICATIONS_SHOWN = 20;

export type NotificationView = { id: string; kind: string; title: string; body: string; read: boolean; createdAt: Date };

export async function listNotifications(accountId: string, userId: string): Promise<{ items: NotificationView[]; unread: number }> {
  const visible = { accountId, OR: [{ userId: null }, { userId }] };
  const [rows, unread] = await Promise.all([
    db.notification.findMany({ where: visible, orderBy: { createdAt: "desc" }, take: NOTIFICATIONS_SHOWN }),
    db.notification.count({ where: { ...visible, readAt: null } }),
  ]);
  return {
    items: rows.map((row) => ({ id: row.id, kind: row.kind, title: row.title, body: row.body, read: row.readAt !== null, createdAt: row.createdAt })),
    unread,
  };
}
