import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { LOW_BALANCE_KIND } from "@/server/alerts/record-low-balance-alert";
import { inTransaction } from "@/server/base/transaction";
import { setThresholds } from "@/server/alerts/thresholds";
import { addCredits } from "@/server/credits/add-credits";
import { chargeCredits } from "@/server/credits/charge-credits";
import { getBalance } from "@/server/ledger/get-balance";
import { refundCredits } from "@/server/credits/refund-credits";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db, disconnectDb } from "@/server/base/db";
import { openEmailBody } from "@/server/email/email-body";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { recordingEventSink } from "@/tests/support/event-sink";

// The low-balance rules against real PostgreSQL, driven by the real credit functions:
// fire once, re-arm on add and refund (not on charge), several at once → one alert, everything in
// the movement's transaction, exactly one alert under concurrency, the event only after commit.
// Events this process sends are captured here (never left for another process's executor).

const { sink, sent } = recordingEventSink();

const txOptions = { maxWait: 60_000, timeout: 60_000 };

beforeAll(() => registerExecutor(sink));
beforeEach(async () => {
  sent.length = 0;
});
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

/** A new account: primary owner, default 0.50 threshold, 1.000 welcome credit (+ `extraMillis`). */
async function newAccount(extraMillis?: number) {
  const email = `alerts-${randomUUID()}@test.local`;
  const created = await inTransaction((tx) => createAccount(tx, { email, ...(extraMillis ? { credits: extraMillis } : {}) }), txOptions);
  return { accountId: created.account_id, userId: created.user_id, email };
}

async function reserve(accountId: string, amountMillis: number): Promise<string> {
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", status: "processing", modelIdentifier: "test/model", estimatedCost: "0.010" },
    select: { id: true },
  });
  await inTransaction(
    (tx) =>
      reserveCredits(tx, {
        accountId,
        generationId: generation.id,
        amountMillis,
        modelIdentifier: "test/model",
        description: "test reserve",
      }),
    txOptions,
  );
  return generation.id;
}
const add = (accountId: string, amountMillis: number) =>
  inTransaction((tx) => addCredits(tx, { accountId, amountMillis, sourceKey: `test:${randomUUID()}`, description: "test add" }), txOptions);
const charge = (accountId: string, generationId: string) =>
  inTransaction((tx) => chargeCredits(tx, { accountId, generationId }), txOptions);
const refund = (accountId: string, generationId: string) =>
  inTransaction((tx) => refundCredits(tx, { accountId, generationId }), txOptions);

const firedEventsOf = (accountId: string) =>
  sent.filter((event) => event.name === "alerts/low-balance.fired" && event.data.accountId === accountId);
const alertsOf = (accountId: string) =>
  db.notification.findMany({ where: { accountId, kind: LOW_BALANCE_KIND }, orderBy: { createdAt: "asc" } });
const firedRecords = async (accountId: string) =>
  (await db.activityEvent.findMany({ where: { accountId, action: "alert.fired" }, orderBy: { createdAt: "asc" } })).map(
    (event) => event.metadata as Record<string, any>,
  );
async function thresholdState(accountId: string) {
  const rows = await db.alertThreshold.findMany({ where: { accountId }, orderBy: { amount: "desc" } });
  return rows.map((row) => ({ amount: row.amount.toFixed(3), armed: row.armed, fired: row.lastFiredAt !== null }));
}

describe("a threshold fires once while the balance stays below it", () => {
  it("two reserves below 0.50 give one alert: in-app notification, queued e-mail, alert record", async () => {
    const { accountId, email } = await newAccount();
    await reserve(accountId, 300); // 0.700
    expect(await alertsOf(accountId)).toHaveLength(0);

    await reserve(accountId, 300); // 0.400: crosses 0.500
    await reserve(accountId, 100); // 0.300: still below, already fired
    await reserve(accountId, 250); // 0.050

    const alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ userId: null, title: "Low balance: below 0.500 credits" });
    expect(alerts[0]!.body).toContain("0.400");
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: false, fired: true }]);

    const [record, ...others] = await firedRecords(accountId);
    expect(others).toHaveLength(0);
    expect(record).toMatchObject({
      notification_id: alerts[0]!.id,
      balance_before: 0.7,
      balance_after: 0.4,
      thresholds_crossed: [{ threshold: 0.5, balance_at: 0.4 }],
    });
    expect(record!.ledger_entry_id).toEqual(expect.any(String));
    const emails = await db.emailOutbox.findMany({ where: { id: { in: record!.email_outbox_ids } } });
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ to: email, kind: LOW_BALANCE_KIND, status: "queued" });
    expect(emails[0]!.subject).toContain("below 0.500");
    expect(openEmailBody(emails[0]!.id, emails[0]!)?.text).toContain("0.400");
  });

  it("a rise never fires, even when the balance stays below an armed threshold", async () => {
    const { accountId } = await newAccount();
    await reserve(accountId, 1000); // 0.000: fires 0.500
    expect(await alertsOf(accountId)).toHaveLength(1);
    await add(accountId, 200); // 0.200: below, disarmed, no alert
    expect(await alertsOf(accountId)).toHaveLength(1);
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: false, fired: true }]);
  });
});

describe("re-arming", () => {
  it("an add that lifts the balance to the threshold or above re-arms it; the next drop fires again", async () => {
    const { accountId } = await newAccount();
    await reserve(accountId, 600); // 0.400: fires
    await add(accountId, 50); // 0.450: still below, stays fired
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: false, fired: true }]);
    await add(accountId, 50); // 0.500: at the threshold (not below it): re-armed
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: true, fired: true }]);
    await reserve(accountId, 1); // 0.499: fires again
    const alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(2);
    expect((await firedRecords(accountId))[1]!.thresholds_crossed).toEqual([{ threshold: 0.5, balance_at: 0.499 }]);
  });

  it("a refund re-arms; a charge does not", async () => {
    const { accountId } = await newAccount();
    const first = await reserve(accountId, 300); // 0.700
    const second = await reserve(accountId, 300); // 0.400: fires
    expect(await alertsOf(accountId)).toHaveLength(1);

    await charge(accountId, first); // balance unchanged: nothing re-armed, nothing fired
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: false, fired: true }]);
    expect(await alertsOf(accountId)).toHaveLength(1);

    await refund(accountId, second); // 0.700: re-armed
    expect(await getBalance(db, accountId)).toBe(700);
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: true, fired: true }]);
    await reserve(accountId, 300); // 0.400: fires again
    expect(await alertsOf(accountId)).toHaveLength(2);
  });

  it("only the thresholds the balance reaches are re-armed", async () => {
    const { accountId, userId } = await newAccount(2000); // 3.000
    await inTransaction((tx) => setThresholds(tx, { accountId, amounts: ["2", "1", "0.5"], actorUserId: userId }), txOptions);
    await reserve(accountId, 2800); // 0.200: all three fire, one alert
    await add(accountId, 1000); // 1.200: 1 and 0.5 re-armed, 2 not
    expect(await thresholdState(accountId)).toEqual([
      { amount: "2.000", armed: false, fired: true },
      { amount: "1.000", armed: true, fired: true },
      { amount: "0.500", armed: true, fired: true },
    ]);
  });
});

describe("several thresholds crossed in one movement", () => {
  it("fire one alert that lists them all, highest first, and e-mails every owner once", async () => {
    const { accountId, userId, email } = await newAccount(); // 1.000
    const owner = await db.user.create({ data: { email: `owner-${randomUUID()}@test.local` } });
    const member = await db.user.create({ data: { email: `member-${randomUUID()}@test.local` } });
    await db.membership.createMany({
      data: [
        { accountId, userId: owner.id, role: "owner" },
        { accountId, userId: member.id, role: "member" },
      ],
    });
    await inTransaction((tx) => setThresholds(tx, { accountId, amounts: ["0.9", "0.6", "0.5", "0.1"], actorUserId: userId }), txOptions);

    await reserve(accountId, 500); // 0.500: crosses 0.9 and 0.6; 0.5 is not crossed (not below)
    let alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(1);
    let records = await firedRecords(accountId);
    expect(records[0]!.thresholds_crossed).toEqual([
      { threshold: 0.9, balance_at: 0.5 },
      { threshold: 0.6, balance_at: 0.5 },
    ]);
    expect(alerts[0]!.body).toContain("0.900, 0.600");
    const emails = await db.emailOutbox.findMany({ where: { id: { in: records[0]!.email_outbox_ids } } });
    expect(emails.map((row) => row.to).sort()).toEqual([email, owner.email].sort());

    await reserve(accountId, 450); // 0.050: crosses 0.5 and 0.1 in one more alert
    alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(2);
    records = await firedRecords(accountId);
    expect(records[1]!.thresholds_crossed).toEqual([
      { threshold: 0.5, balance_at: 0.05 },
      { threshold: 0.1, balance_at: 0.05 },
    ]);
    expect(await thresholdState(accountId)).toEqual([
      { amount: "0.900", armed: false, fired: true },
      { amount: "0.600", armed: false, fired: true },
      { amount: "0.500", armed: false, fired: true },
      { amount: "0.100", armed: false, fired: true },
    ]);
  });
});

describe("atomicity", () => {
  it("writes the alert in the movement's transaction: rolled back, nothing is left and nothing is sent", async () => {
    const { accountId, email } = await newAccount();
    const generation = await db.generation.create({
      data: { accountId, region: "us", mediaKind: "image", status: "processing", modelIdentifier: "test/model", estimatedCost: "0.010" },
      select: { id: true },
    });
    const outboxBefore = await db.emailOutbox.count({ where: { to: email } });

    const failure = new Error("the caller failed after the reserve");
    const outcome = await inTransaction(async (tx) => {
      await reserveCredits(tx, {
        accountId,
        generationId: generation.id,
        amountMillis: 800,
        modelIdentifier: "test/model",
        description: "rolled back",
      });
      // Inside: the alert exists. Outside (another connection): not yet.
      expect(await tx.notification.count({ where: { accountId, kind: LOW_BALANCE_KIND } })).toBe(1);
      expect(await db.notification.count({ where: { accountId, kind: LOW_BALANCE_KIND } })).toBe(0);
      throw failure;
    }, txOptions).catch((error: unknown) => error);
    expect(outcome).toBe(failure);

    expect(await alertsOf(accountId)).toHaveLength(0);
    expect(await firedRecords(accountId)).toHaveLength(0);
    expect(await db.emailOutbox.count({ where: { to: email } })).toBe(outboxBefore);
    expect(await thresholdState(accountId)).toEqual([{ amount: "0.500", armed: true, fired: false }]);
    expect(await getBalance(db, accountId)).toBe(1000);
    expect(firedEventsOf(accountId)).toHaveLength(0);
  });

  it("sends alerts/low-balance.fired once the movement committed, with the id low-balance:<notification id>", async () => {
    const { accountId } = await newAccount();
    await reserve(accountId, 800);
    const [alert] = await alertsOf(accountId);
    expect(firedEventsOf(accountId)).toEqual([
      expect.objectContaining({ id: `low-balance:${alert!.id}`, data: { accountId, notificationId: alert!.id } }),
    ]);
  });

  it("a movement writes the alert of the thresholds it crossed, or none", async () => {
    const { accountId } = await newAccount();
    await reserve(accountId, 100); // 0.900: above 0.500, nothing crossed
    expect(await alertsOf(accountId)).toHaveLength(0);
    expect(await firedRecords(accountId)).toHaveLength(0);
    await reserve(accountId, 800); // 0.100: crosses 0.500
    const [record, ...others] = await firedRecords(accountId);
    expect(others).toHaveLength(0);
    expect(record).toMatchObject({ balance_after: 0.1, thresholds_crossed: [{ threshold: 0.5, balance_at: 0.1 }] });
    expect(record!.email_outbox_ids).toHaveLength(1);
    expect((await alertsOf(accountId)).map((row) => row.id)).toEqual([record!.notification_id]);
  });
});

describe("concurrency", () => {
  it("20 concurrent reserves crossing a threshold fire exactly one alert", async () => {
    const { accountId } = await newAccount(1000); // 2.000
    const generations = await Promise.all(
      Array.from({ length: 20 }, () =>
        db.generation.create({
          data: {
            accountId,
            region: "us",
            mediaKind: "image",
            status: "processing",
            modelIdentifier: "test/model",
            estimatedCost: "0.090",
          },
          select: { id: true },
        }),
      ),
    );
    await Promise.all(
      generations.map((generation) =>
        inTransaction(
          (tx) =>
            reserveCredits(tx, {
              accountId,
              generationId: generation.id,
              amountMillis: 90,
              modelIdentifier: "test/model",
              description: "concurrent",
            }),
          txOptions,
        ),
      ),
    );
    expect(await getBalance(db, accountId)).toBe(200);

    const alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(1);
    const records = await firedRecords(accountId);
    expect(records).toHaveLength(1);
    // The reserve that crossed: the balance went from ≥ 0.500 to below it.
    const crossed = records[0]!.thresholds_crossed as Array<{ threshold: number; balance_at: number }>;
    expect(crossed).toHaveLength(1);
    expect(crossed[0]!.threshold).toBe(0.5);
    expect(crossed[0]!.balance_at).toBeLessThan(0.5);
    expect(crossed[0]!.balance_at).toBeGreaterThanOrEqual(0.41);
    expect(records[0]!.email_outbox_ids).toHaveLength(1);
    expect(firedEventsOf(accountId).map((event) => event.id)).toEqual([`low-balance:${alerts[0]!.id}`]);
  });
});
