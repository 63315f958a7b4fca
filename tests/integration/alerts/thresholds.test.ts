import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { LOW_BALANCE_KIND } from "@/server/alerts/record-low-balance-alert";
import { inTransaction } from "@/server/base/transaction";
import { accountScope } from "@/server/base/account-scope";
import { getThresholds, setThresholds } from "@/server/alerts/thresholds";
import { addCredits } from "@/server/credits/add-credits";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { recordingEventSink } from "@/tests/support/event-sink";

// Editing low-balance thresholds: default 0.50, up to 10 positive amounts with at
// most 3 decimals, de-duplicated, primary owner only, and no retroactive firing on save.

const { sink } = recordingEventSink();
const txOptions = { maxWait: 60_000, timeout: 60_000 };

beforeAll(() => registerExecutor(sink));
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

async function newAccount(extraMillis?: number) {
  const created = await inTransaction(
    (tx) => createAccount(tx, { email: `thresholds-${randomUUID()}@test.local`, ...(extraMillis ? { credits: extraMillis } : {}) }),
    txOptions,
  );
  return { accountId: created.account_id, userId: created.user_id };
}

const set = (accountId: string, actorUserId: string, amounts: Array<string | number>) =>
  inTransaction((tx) => setThresholds(tx, { accountId, amounts, actorUserId }), txOptions);

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

async function expectApiError(promise: Promise<unknown>, code: string, field?: string): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  if (field) expect((error as ApiError).details).toEqual({ fields: [expect.objectContaining({ field })] });
  return error as ApiError;
}

const amounts = async (accountId: string) => (await getThresholds(db, accountScope(accountId))).map((threshold) => threshold.amount);

describe("defaults and reading", () => {
  it("a new account has one armed threshold at 0.50", async () => {
    const { accountId } = await newAccount();
    expect(await getThresholds(db, accountScope(accountId))).toEqual([{ amount: 0.5, armed: true, lastFiredAt: null }]);
  });
});

describe("setThresholds", () => {
  it("replaces the list (de-duplicated, highest first) and records who changed it", async () => {
    const { accountId, userId } = await newAccount();
    const result = await set(accountId, userId, ["0.25", 5, "1", "1.0", 1, "1.000", "10.125"]);
    expect(result.map((threshold) => threshold.amount)).toEqual([10.125, 5, 1, 0.25]);
    expect(await amounts(accountId)).toEqual([10.125, 5, 1, 0.25]);

    const events = await db.activityEvent.findMany({ where: { accountId, action: "alert.thresholds_updated" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: userId,
      category: "notification",
      metadata: { thresholds: [10.125, 5, 1, 0.25], previous: [0.5] },
    });
    expect(events[0]!.description).toBe("Low-balance alerts set to 10.125, 5.000, 1.000, 0.250");
  });

  it("allows 10 thresholds and refuses 11 (counted after de-duplication)", async () => {
    const { accountId, userId } = await newAccount();
    const ten = Array.from({ length: 10 }, (_, index) => `${index + 1}`);
    expect(await set(accountId, userId, ten)).toHaveLength(10);
    await expectApiError(set(accountId, userId, [...ten, "11"]), "ERR1001", "thresholds");
    expect(await set(accountId, userId, [...ten, "10.000"])).toHaveLength(10);
    expect(await amounts(accountId)).toHaveLength(10);
  });

  it("refuses zero, negative and non-numeric amounts", async () => {
    const { accountId, userId } = await newAccount();
    for (const bad of [0, "0", "0.000", -1, "-0.5", "abc", "", "1e3", Number.NaN, Number.POSITIVE_INFINITY, "0x10"]) {
      await expectApiError(set(accountId, userId, ["1", bad]), "ERR1001", "thresholds[1]");
    }
    await expectApiError(set(accountId, userId, [null as unknown as string]), "ERR1001", "thresholds[0]");
    expect(await amounts(accountId)).toEqual([0.5]);
  });

  it("accepts at most 3 decimals", async () => {
    const { accountId, userId } = await newAccount();
    await expectApiError(set(accountId, userId, ["0.0001"]), "ERR1001", "thresholds[0]");
    await expectApiError(set(accountId, userId, [1.2345]), "ERR1001", "thresholds[0]");
    await expectApiError(set(accountId, userId, [0.1 + 0.2]), "ERR1001", "thresholds[0]");
    expect(await amounts(accountId)).toEqual([0.5]);
    expect(await set(accountId, userId, ["0.001", 2.125])).toEqual([
      { amount: 2.125, armed: false, lastFiredAt: null },
      { amount: 0.001, armed: true, lastFiredAt: null },
    ]);
  });

  it("an empty list turns alerts off", async () => {
    const { accountId, userId } = await newAccount();
    expect(await set(accountId, userId, [])).toEqual([]);
    await reserve(accountId, 1000);
    expect(await db.notification.count({ where: { accountId, kind: LOW_BALANCE_KIND } })).toBe(0);
  });

  it("only the primary owner may change them: owners, members and strangers get ERR1003", async () => {
    const { accountId, userId } = await newAccount();
    const owner = await db.user.create({ data: { email: `owner-${randomUUID()}@test.local` } });
    const member = await db.user.create({ data: { email: `member-${randomUUID()}@test.local` } });
    const stranger = await newAccount();
    await db.membership.createMany({
      data: [
        { accountId, userId: owner.id, role: "owner" },
        { accountId, userId: member.id, role: "member" },
      ],
    });

    for (const actor of [owner.id, member.id, stranger.userId, "not-a-uuid"]) {
      const error = await expectApiError(set(accountId, actor, ["2"]), "ERR1003");
      expect(error.message).toBe("Only the primary owner may change low-balance alerts.");
    }
    // Refused before anything else: an invalid list from a member is still a refusal, not ERR1001.
    await expectApiError(set(accountId, member.id, ["-1"]), "ERR1003");
    expect(await amounts(accountId)).toEqual([0.5]);
    expect(await db.activityEvent.count({ where: { accountId, action: "alert.thresholds_updated" } })).toBe(0);

    expect(await set(accountId, userId, ["2"])).toHaveLength(1);
  });

  it("arms a new threshold only when the balance is at or above it: no retroactive alert on save", async () => {
    const { accountId, userId } = await newAccount(); // 1.000
    expect(await set(accountId, userId, ["2", "1", "0.25"])).toEqual([
      { amount: 2, armed: false, lastFiredAt: null }, // already below: waits for the balance to reach it
      { amount: 1, armed: true, lastFiredAt: null }, // at it: armed
      { amount: 0.25, armed: true, lastFiredAt: null },
    ]);
    expect(await db.notification.count({ where: { accountId, kind: LOW_BALANCE_KIND } })).toBe(0);

    await reserve(accountId, 100); // 0.900: crosses 1 only (2 is disarmed)
    const records = await db.activityEvent.findMany({ where: { accountId, action: "alert.fired" } });
    expect(records.map((record) => (record.metadata as { thresholds_crossed: unknown }).thresholds_crossed)).toEqual([
      [{ threshold: 1, balance_at: 0.9 }],
    ]);

    // Once the balance reaches 2, it is armed like any other.
    await inTransaction(
      (tx) => addCredits(tx, { accountId, amountMillis: 1500, sourceKey: `test:${randomUUID()}`, description: "top-up" }),
      txOptions,
    ); // 2.400
    expect((await getThresholds(db, accountScope(accountId))).map((threshold) => threshold.armed)).toEqual([true, true, true]);
  });

  it("keeps the state of thresholds that stay on the list: a fired one does not fire again on save", async () => {
    const { accountId, userId } = await newAccount();
    await reserve(accountId, 600); // 0.400: 0.50 fires
    const [fired] = await getThresholds(db, accountScope(accountId));
    expect(fired).toMatchObject({ amount: 0.5, armed: false, lastFiredAt: expect.any(Date) });

    const after = await set(accountId, userId, ["0.5", "0.3"]);
    expect(after).toEqual([
      { amount: 0.5, armed: false, lastFiredAt: fired!.lastFiredAt },
      { amount: 0.3, armed: true, lastFiredAt: null },
    ]);
    await reserve(accountId, 50); // 0.350: nothing new
    expect(await db.notification.count({ where: { accountId, kind: LOW_BALANCE_KIND } })).toBe(1);
  });
});
