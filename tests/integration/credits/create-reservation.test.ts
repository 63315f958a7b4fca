import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setThresholds } from "@/server/alerts/thresholds";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { decimalToMillis } from "@/server/base/money";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { create, imagePlan, tally } from "../spend/support";

// A create whose locked balance covers its cost and that has no spend limit sends its generation
// insert and its reservation in one statement (server/generations/reserve-and-record.ts). What the
// reservation writes (entry, balance, activity, spend counters, fired thresholds) must come with
// the generation, and nothing of it when the concurrency cap refuses the insert, also under a burst.

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(() => unregisterExecutor(sink));

async function freeAccount(credits: number) {
  const account = await createTestAccount({ plan: "free" });
  await inTransaction((tx) =>
    addCredits(tx, {
      accountId: account.accountId,
      amountMillis: credits * 1000,
      sourceKey: `create-reservation:${account.accountId}`,
      description: "funds",
      actor: "system",
    }),
  );
  const key = await createTestKey(account.accountId);
  const { creditBalance } = await db.account.findUniqueOrThrow({ where: { id: account.accountId }, select: { creditBalance: true } });
  return { ...account, keyId: key.apikey_id, balanceMillis: decimalToMillis(creditBalance.toString()) };
}

/** What a reservation writes for an account: its entries, balance, activity, counters and thresholds. */
async function writtenFor(accountId: string) {
  const [entries, account, reservedEvents, counters, thresholds] = await Promise.all([
    db.ledgerEntry.findMany({ where: { accountId, type: "reserve" }, select: { generationId: true, amount: true, balanceAfter: true } }),
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { creditBalance: true } }),
    db.activityEvent.count({ where: { accountId, action: "credit.reserved" } }),
    db.spendCounter.findMany({ where: { accountId }, select: { budgetId: true, day: true, used: true } }),
    db.alertThreshold.findMany({ where: { accountId }, select: { amount: true, armed: true } }),
  ]);
  return {
    entries,
    balanceMillis: decimalToMillis(account.creditBalance.toString()),
    reservedEvents,
    counters: Object.fromEntries(counters.map((row) => [row.budgetId, decimalToMillis(row.used.toString())])),
    counterDays: [...new Set(counters.map((row) => row.day.toISOString().slice(0, 10)))],
    thresholds: Object.fromEntries(thresholds.map((row) => [row.amount.toString(), row.armed])),
  };
}

describe("a create's reservation in its generation's statement", () => {
  it("writes the generation, the reserve entry, the balance, the activity, both spend counters and a crossed threshold together", async () => {
    const account = await freeAccount(5);
    const plan = await imagePlan(account.accountId, account.keyId);
    // A threshold just under the balance: the reservation crosses it.
    const thresholdMillis = account.balanceMillis - Math.floor(plan.costMillis / 2);
    await inTransaction((tx) =>
      setThresholds(tx, { accountId: account.accountId, amounts: [thresholdMillis / 1000], actorUserId: account.userId }),
    );

    const outcome = await create(plan);
    if (!outcome.accepted) throw new Error(`expected the create to be accepted, got ${outcome.code}`);
    const generation = await db.generation.findUniqueOrThrow({
      where: { id: outcome.generationId },
      select: { status: true, createdAt: true },
    });
    expect(generation.status).toBe("pending");

    const written = await writtenFor(account.accountId);
    const after = account.balanceMillis - plan.costMillis;
    expect(written.entries).toHaveLength(1);
    expect(written.entries[0]!.generationId).toBe(outcome.generationId);
    expect(decimalToMillis(written.entries[0]!.amount.toString())).toBe(plan.costMillis);
    expect(decimalToMillis(written.entries[0]!.balanceAfter.toString())).toBe(after);
    expect(written.balanceMillis).toBe(after);
    expect(written.reservedEvents).toBe(1);
    // The account's budget and the key's, on the generation's creation day.
    expect(written.counters).toEqual({ [account.accountId]: plan.costMillis, [account.keyId]: plan.costMillis });
    expect(written.counterDays).toEqual([generation.createdAt.toISOString().slice(0, 10)]);
    expect(Object.values(written.thresholds)).toEqual([false]);
    // The fired threshold's alert is recorded in the same transaction.
    expect(await db.notification.count({ where: { accountId: account.accountId } })).toBeGreaterThanOrEqual(1);
  });

  it("writes nothing of the reservation when the concurrency cap refuses the insert (ERR1009)", async () => {
    const account = await freeAccount(5);
    const plan = await imagePlan(account.accountId, account.keyId);
    // Free plan: two images in flight. The third create is refused by the cap.
    for (let index = 0; index < 2; index += 1) expect((await create(plan)).accepted).toBe(true);
    const thresholdMillis = account.balanceMillis - 2 * plan.costMillis - Math.floor(plan.costMillis / 2);
    await inTransaction((tx) =>
      setThresholds(tx, { accountId: account.accountId, amounts: [thresholdMillis / 1000], actorUserId: account.userId }),
    );
    const before = await writtenFor(account.accountId);
    const notificationsBefore = await db.notification.count({ where: { accountId: account.accountId } });

    const refused = await create(plan);
    expect(refused).toMatchObject({ accepted: false, code: "ERR1009", details: { media_kind: "image", limit: 2, in_flight: 2 } });
    expect(await writtenFor(account.accountId)).toEqual(before);
    expect(Object.values(before.thresholds)).toEqual([true]);
    expect(await db.notification.count({ where: { accountId: account.accountId } })).toBe(notificationsBefore);
    expect(await db.generation.count({ where: { accountId: account.accountId } })).toBe(2);
  });

  it("40 concurrent creates at a cap of 2: exactly 2 generations, 2 reservations and 38 ERR1009, ledger and counters agreeing", async () => {
    const account = await freeAccount(50);
    const plan = await imagePlan(account.accountId, account.keyId);
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => create(plan)));
    expect(tally(outcomes)).toEqual({ accepted: 2, ERR1009: 38 });
    const written = await writtenFor(account.accountId);
    const accepted = outcomes.flatMap((outcome) => (outcome.accepted ? [outcome.generationId] : []));
    expect(written.entries.map((entry) => entry.generationId).sort()).toEqual([...accepted].sort());
    expect(written.balanceMillis).toBe(account.balanceMillis - 2 * plan.costMillis);
    // Each entry's balance_after is a balance the account really had, one after the other.
    expect(written.entries.map((entry) => decimalToMillis(entry.balanceAfter.toString())).sort((a, b) => b - a)).toEqual([
      account.balanceMillis - plan.costMillis,
      account.balanceMillis - 2 * plan.costMillis,
    ]);
    expect(written.reservedEvents).toBe(2);
    expect(written.counters).toEqual({ [account.accountId]: 2 * plan.costMillis, [account.keyId]: 2 * plan.costMillis });
    expect(await db.generation.count({ where: { accountId: account.accountId } })).toBe(2);
  });

  it("a balance short of the cost still answers the cap first (ERR1009), then ERR1004, writing nothing", async () => {
    const account = await freeAccount(1);
    const plan = await imagePlan(account.accountId, account.keyId);
    const costly = { ...plan, costMillis: account.balanceMillis + 1 };
    const short = await create(costly);
    expect(short).toMatchObject({ accepted: false, code: "ERR1004" });
    expect(await db.generation.count({ where: { accountId: account.accountId } })).toBe(0);
    for (let index = 0; index < 2; index += 1) expect((await create(plan)).accepted).toBe(true);
    expect(await create(costly)).toMatchObject({ accepted: false, code: "ERR1009" });
    const written = await writtenFor(account.accountId);
    expect(written.entries).toHaveLength(2);
    expect(written.balanceMillis).toBe(account.balanceMillis - 2 * plan.costMillis);
  });
});
