import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction } from "@/server/base/transaction";
import { createCaller } from "@/tests/support/dashboard-caller";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { recordingEventSink } from "@/tests/support/event-sink";

// The alerts and notifications routers through createCaller: thresholds are read by everyone and
// changed by the primary owner only; the bell lists what a low-balance alert wrote.

const { sink } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

const txOptions = { maxWait: 10_000, timeout: 20_000 };
const as = (userId: string | null) => createCaller({ userId });

async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  return { accountId, primaryOwner, owner: await addTeamMember(accountId, "owner"), member: await addTeamMember(accountId, "member") };
}

async function reserve(accountId: string, amountMillis: number) {
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", status: "processing", modelIdentifier: "test/model", estimatedCost: "0.010" },
    select: { id: true },
  });
  await inTransaction(
    (tx) =>
      reserveCredits(tx, { accountId, generationId: generation.id, amountMillis, modelIdentifier: "test/model", description: "test" }),
    txOptions,
  );
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, apiError: ((error as TRPCError).cause as ApiError).toBody() };
}

describe("alerts router", () => {
  it("everyone in the account reads the thresholds; only the primary owner may edit", async () => {
    const { accountId, primaryOwner, owner, member } = await team();
    for (const userId of [primaryOwner, owner, member]) {
      const view = await as(userId).alerts.get({ accountId });
      expect(view.thresholds).toEqual([{ amount: 0.5, armed: true, lastFiredAt: null }]);
      expect(view.maxThresholds).toBe(10);
      expect(view.canEdit).toBe(userId === primaryOwner);
    }
    for (const userId of [owner, member]) {
      const { code, apiError } = await refusal(as(userId).alerts.set({ accountId, thresholds: [2] }));
      expect(code).toBe("FORBIDDEN");
      expect(apiError.code).toBe("ERR1003");
    }
    const saved = await as(primaryOwner).alerts.set({ accountId, thresholds: ["5", 2.5, "0.50"] });
    expect(saved.thresholds.map((t) => t.amount)).toEqual([5, 2.5, 0.5]);
    const activity = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "alert.thresholds_updated" } });
    expect(activity.actor).toBe(primaryOwner);
  });

  it("refuses bad lists with ERR1001 naming the entry, and more than ten amounts", async () => {
    const { accountId, primaryOwner } = await team();
    const negative = await refusal(as(primaryOwner).alerts.set({ accountId, thresholds: ["1", "-3"] }));
    expect(negative.code).toBe("BAD_REQUEST");
    expect(negative.apiError).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "thresholds[1]" }] } });
    const eleven = await refusal(as(primaryOwner).alerts.set({ accountId, thresholds: Array.from({ length: 11 }, (_, i) => i + 1) }));
    expect(eleven.apiError.code).toBe("ERR1001");
    const wrongType = await refusal(as(primaryOwner).alerts.set({ accountId, thresholds: [true] as unknown as number[] }));
    expect(wrongType.apiError.code).toBe("ERR1001");
    expect((await as(primaryOwner).alerts.get({ accountId })).thresholds.map((t) => t.amount)).toEqual([0.5]);
  });

  it("a stranger and a signed-out caller see nothing", async () => {
    const { accountId } = await team();
    const stranger = await createTestAccount();
    expect((await refusal(as(stranger.userId).alerts.get({ accountId }))).apiError.code).toBe("ERR1006");
    expect((await refusal(as(stranger.userId).alerts.set({ accountId, thresholds: [1] }))).apiError.code).toBe("ERR1006");
    expect((await refusal(as(null).alerts.get({ accountId }))).code).toBe("UNAUTHORIZED");
  });
});

describe("notifications router (the bell)", () => {
  it("lists the low-balance alert for every member, and marking read clears the reader's count only", async () => {
    const { accountId, owner, member } = await team();
    await reserve(accountId, 700); // 1.000 welcome → 0.300: crosses 0.50
    const seen = await as(member).notifications.list({ accountId });
    expect(seen.unread).toBe(1);
    expect(seen.items[0]).toMatchObject({ kind: "credits.low_balance", read: false });
    expect(seen.items[0]?.title).toContain("0.500");

    const stranger = await createTestAccount();
    expect((await refusal(as(stranger.userId).notifications.markRead({ accountId }))).apiError.code).toBe("ERR1006");
    // Someone else's id is ignored rather than marked.
    expect(await as(stranger.userId).notifications.markRead({ accountId: stranger.accountId, ids: [seen.items[0]!.id] })).toEqual({
      marked: 0,
    });

    expect(await as(owner).notifications.markRead({ accountId, ids: [seen.items[0]!.id, "not-a-uuid"] })).toEqual({ marked: 1 });
    expect((await as(owner).notifications.list({ accountId })).unread).toBe(0);
    expect((await as(member).notifications.list({ accountId })).unread).toBe(1);
    expect(await as(member).notifications.markRead({ accountId })).toEqual({ marked: 1 });
    expect((await as(member).notifications.list({ accountId })).unread).toBe(0);
  });

  it("shows personal notifications only to their user", async () => {
    const { accountId, owner, member } = await team();
    await db.notification.create({ data: { accountId, userId: owner, kind: "test.personal", title: "For the owner", body: "only" } });
    expect((await as(owner).notifications.list({ accountId })).items.map((n) => n.title)).toContain("For the owner");
    expect((await as(member).notifications.list({ accountId })).items.map((n) => n.title)).not.toContain("For the owner");
    expect(await as(member).notifications.markRead({ accountId })).toEqual({ marked: 0 });
    expect(await as(owner).notifications.markRead({ accountId })).toEqual({ marked: 1 });
  });
});

describe("account router", () => {
  it("lists the user's accounts and the overview's daily activity", async () => {
    const { accountId, member } = await team();
    const other = await createTestAccount();
    await db.membership.create({ data: { accountId: other.accountId, userId: member, role: "owner" } });
    const accounts = await as(member).account.list();
    expect(accounts.map((a) => [a.accountId, a.role])).toEqual([
      [accountId, "member"],
      [other.accountId, "owner"],
    ]);

    const now = new Date();
    const generation = await db.generation.create({
      data: { accountId, region: "us", mediaKind: "image", modelIdentifier: "test/model", estimatedCost: "0.250", status: "succeeded" },
    });
    await db.generation.create({
      data: { accountId, region: "us", mediaKind: "image", modelIdentifier: "test/model", estimatedCost: "0.250", status: "failed" },
    });
    await db.ledgerEntry.create({
      data: {
        accountId,
        type: "charge",
        amount: "0.250",
        balanceAfter: "0.750",
        generationId: generation.id,
        description: `test ${randomUUID()}`,
      },
    });
    const days = await as(member).account.dailyActivity({ accountId });
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: now.toISOString().slice(0, 10), succeeded: 1, failed: 1, canceled: 0, charged: 0.25 });
    expect(days.slice(0, -1).every((day) => day.succeeded + day.failed + day.canceled === 0)).toBe(true);

    const recent = await as(member).account.recentActivity({ accountId });
    expect(recent[0]?.action).toBeDefined();
  });
});
