import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";

// Read state of the bell is per user: two owners of one account see the same account-wide
// notification, and one of them reading it leaves it unread for the other.

afterAll(disconnectDb);

const bell = (userId: string) => createCaller({ userId }).notifications;

async function twoOwners() {
  const { accountId, userId: ownerA } = await createTestAccount();
  const ownerB = await addTeamMember(accountId, "owner");
  return { accountId, ownerA, ownerB };
}

const notify = (accountId: string, title: string, userId: string | null = null) =>
  db.notification.create({ data: { accountId, userId, kind: "test.notice", title, body: title }, select: { id: true } });

describe("notification read state per user", () => {
  it("owner A marking an account-wide notification read drops A's unread count, not B's", async () => {
    const { accountId, ownerA, ownerB } = await twoOwners();
    const first = await notify(accountId, "Account-wide one");
    const second = await notify(accountId, "Account-wide two");
    expect((await bell(ownerA).list({ accountId })).unread).toBe(2);
    expect((await bell(ownerB).list({ accountId })).unread).toBe(2);

    expect(await bell(ownerA).markRead({ accountId, ids: [first.id] })).toEqual({ marked: 1 });
    // Marking it again is a no-op.
    expect(await bell(ownerA).markRead({ accountId, ids: [first.id] })).toEqual({ marked: 0 });

    const a = await bell(ownerA).list({ accountId });
    const b = await bell(ownerB).list({ accountId });
    expect(a.unread).toBe(1);
    expect(b.unread).toBe(2);
    expect(a.items.find((n) => n.id === first.id)?.read).toBe(true);
    expect(a.items.find((n) => n.id === second.id)?.read).toBe(false);
    expect(b.items.every((n) => !n.read)).toBe(true);

    expect(await bell(ownerB).markRead({ accountId })).toEqual({ marked: 2 });
    expect((await bell(ownerB).list({ accountId })).unread).toBe(0);
    expect((await bell(ownerA).list({ accountId })).unread).toBe(1);
    expect(await db.notificationRead.count({ where: { notificationId: { in: [first.id, second.id] } } })).toBe(3);
  });

  it("a notification addressed to one user is shown to, counted for and markable by that user only", async () => {
    const { accountId, ownerA, ownerB } = await twoOwners();
    const personal = await notify(accountId, "Only for A", ownerA);
    const a = await bell(ownerA).list({ accountId });
    const b = await bell(ownerB).list({ accountId });
    expect(a.items.map((n) => n.id)).toContain(personal.id);
    expect(a.unread).toBe(1);
    expect(b.items.map((n) => n.id)).not.toContain(personal.id);
    expect(b.unread).toBe(0);

    expect(await bell(ownerB).markRead({ accountId, ids: [personal.id] })).toEqual({ marked: 0 });
    expect(await db.notificationRead.count({ where: { notificationId: personal.id } })).toBe(0);
    expect(await bell(ownerA).markRead({ accountId, ids: [personal.id] })).toEqual({ marked: 1 });
    expect((await bell(ownerA).list({ accountId })).unread).toBe(0);
  });

  it("read marks go with the notification and with the user", async () => {
    const { accountId, ownerA, ownerB } = await twoOwners();
    const notice = await notify(accountId, "Soon deleted");
    await bell(ownerA).markRead({ accountId });
    await bell(ownerB).markRead({ accountId });
    await db.user.delete({ where: { id: ownerB } });
    expect(await db.notificationRead.count({ where: { notificationId: notice.id } })).toBe(1);
    await db.notification.delete({ where: { id: notice.id } });
    expect(await db.notificationRead.count({ where: { notificationId: notice.id } })).toBe(0);
  });
});
