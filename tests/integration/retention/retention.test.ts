import { describe, expect, it } from "vitest";
import { accountScope, OPERATOR } from "@/server/base/account-scope";
import { renewManualPlan, setManualPlan } from "@/server/billing/manual-plans";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { queueEmail } from "@/server/email/queue-email";
import { functions } from "@/server/jobs/functions";
import { planLimits, planNames, type PlanName } from "@/server/plans/plan-limits";
import { RETENTION_BATCH_SIZE } from "@/server/retention/delete-in-batches";
import { runRetention } from "@/server/retention/run-retention";
import { inTransaction } from "@/server/base/transaction";
import { uniqueEmail } from "@/tests/support/http";
import { seedRequestLogs } from "@/tests/support/request-logs";
import {
  balanceText,
  exists,
  fileExists,
  futureNow,
  secondsBefore,
  seedAccount,
  seedActivity,
  seedDelivery,
  seedEndpoint,
  seedGeneration,
  seedLedgerAdd,
  seedLedgerMovement,
  seedRequestLog,
  specWindows,
} from "@/tests/support/retention";

// Retention by plan (spec §8) against the real database and storage: for every plan and every
// kind, a row one second inside the window and one exactly at it stay, one second outside goes;
// files go with their record; the balance column never moves; a second pass removes nothing.

const ZERO = {
  generations: 0,
  files: 0,
  request_logs: 0,
  webhook_deliveries: 0,
  webhook_attempts: 0,
  dead_letters: 0,
  activity_events: 0,
  ledger_entries: 0,
  sent_emails: 0,
  generation_events: 0,
};

type Seeded = { generation: { id: string; keys: string[] }; requestLog: string; delivery: string; activity: string; ledger: string };

async function seedAt(accountId: string, endpointId: string, plan: PlanName, now: Date, seconds: number): Promise<Seeded> {
  const windows = specWindows[plan];
  return {
    generation: await seedGeneration(accountId, secondsBefore(now, windows.generations, seconds)),
    requestLog: await seedRequestLog(accountId, secondsBefore(now, windows.requestLogs, seconds)),
    delivery: await seedDelivery(accountId, endpointId, secondsBefore(now, windows.webhookLogs, seconds)),
    activity: await seedActivity(accountId, secondsBefore(now, windows.activity, seconds)),
    ledger: await seedLedgerAdd(accountId, secondsBefore(now, windows.ledger, seconds)),
  };
}

async function present(rows: Seeded) {
  return {
    generation: await exists("generation", rows.generation.id),
    files: await Promise.all(rows.generation.keys.map(fileExists)),
    requestLog: await exists("requestLog", rows.requestLog),
    delivery: await exists("webhookDelivery", rows.delivery),
    attempts: await db.webhookAttempt.count({ where: { deliveryId: rows.delivery } }),
    activity: await exists("activityEvent", rows.activity),
    ledger: await exists("ledgerEntry", rows.ledger),
  };
}

const kept = { generation: true, files: [true, true], requestLog: true, delivery: true, attempts: 1, activity: true, ledger: true };
const removed = {
  generation: false,
  files: [false, false],
  requestLog: false,
  delivery: false,
  attempts: 0,
  activity: false,
  ledger: false,
};

describe("retention windows", () => {
  it("are the spec's table, in seconds, in the plan limits retention reads", () => {
    for (const plan of planNames) {
      const { outputFiles: _outputFiles, ...windows } = planLimits[plan].retention;
      const spec = specWindows[plan];
      expect(windows, plan).toEqual({
        generations: spec.generations / 1000,
        requestLogs: spec.requestLogs / 1000,
        webhookLogs: spec.webhookLogs / 1000,
        activity: spec.activity / 1000,
        ledger: spec.ledger / 1000,
      });
    }
  });
});

describe("runRetention", () => {
  for (const plan of planNames) {
    it(`${plan}: each kind one second inside and at its window stays, one second outside goes with its files; the balance does not move`, async () => {
      const now = futureNow();
      const accountId = await seedAccount(plan);
      const endpointId = await seedEndpoint(accountId);
      const inside = await seedAt(accountId, endpointId, plan, now, 1);
      const atBoundary = await seedAt(accountId, endpointId, plan, now, 0);
      const outside = await seedAt(accountId, endpointId, plan, now, -1);
      const balance = await balanceText(accountId);

      const pass = await runRetention(db, accountScope(accountId), { now });
      expect(pass).toEqual({
        now: now.toISOString(),
        accounts: 1,
        removed: {
          generations: 1,
          files: 2,
          request_logs: 1,
          webhook_deliveries: 1,
          webhook_attempts: 1,
          dead_letters: 0,
          activity_events: 1,
          ledger_entries: 1,
          sent_emails: 0,
          generation_events: 0,
        },
        deferred: { generations: 0 },
      });
      expect(await present(inside)).toEqual(kept);
      expect(await present(atBoundary)).toEqual(kept);
      expect(await present(outside)).toEqual(removed);
      expect(await balanceText(accountId)).toBe(balance);

      // Idempotent: the same moment again finds nothing.
      expect((await runRetention(db, accountScope(accountId), { now })).removed).toEqual(ZERO);
      expect(await balanceText(accountId)).toBe(balance);
    });
  }

  it("goes by the account's current plan: after a downgrade the shorter windows apply", async () => {
    const now = futureNow();
    const accountId = await seedAccount("enterprise");
    const tenDaysOld = await seedGeneration(accountId, secondsBefore(now, 10 * 24 * 3600_000));
    expect((await runRetention(db, accountScope(accountId), { now })).removed.generations).toBe(0);
    await db.account.update({ where: { id: accountId }, data: { plan: "starter" } });
    expect((await runRetention(db, accountScope(accountId), { now })).removed).toMatchObject({ generations: 1, files: 2 });
    expect(await exists("generation", tenDaysOld.id)).toBe(false);
  });

  it("keeps generations in flight and their ledger rows, and an open reservation, whatever their age", async () => {
    const now = futureNow();
    const accountId = await seedAccount("free");
    const longAgo = secondsBefore(now, 60 * 24 * 3600_000);
    const pending = await seedGeneration(accountId, longAgo, "pending", 0);
    const processing = await seedGeneration(accountId, longAgo, "processing", 0);
    const pendingReserve = await seedLedgerMovement(accountId, pending.id, "reserve", longAgo);
    const processingReserve = await seedLedgerMovement(accountId, processing.id, "reserve", longAgo);
    // Terminal and settled: the record, then its reserve and charge go.
    const settled = await seedGeneration(accountId, longAgo, "succeeded", 1);
    const settledReserve = await seedLedgerMovement(accountId, settled.id, "reserve", longAgo);
    const settledCharge = await seedLedgerMovement(accountId, settled.id, "charge", longAgo);
    // Failed but its refund never written (should not happen: refunds commit with the status):
    // the record goes, its reservation stays open in the ledger.
    const unsettled = await seedGeneration(accountId, longAgo, "failed", 0);
    const openReserve = await seedLedgerMovement(accountId, unsettled.id, "reserve", longAgo);
    const balance = await balanceText(accountId);

    const pass = await runRetention(db, accountScope(accountId), { now });
    expect(pass.removed).toMatchObject({ generations: 2, files: 1, ledger_entries: 2 });
    expect(await exists("generation", pending.id)).toBe(true);
    expect(await exists("generation", processing.id)).toBe(true);
    for (const id of [pendingReserve, processingReserve, openReserve]) expect(await exists("ledgerEntry", id)).toBe(true);
    for (const id of [settledReserve, settledCharge]) expect(await exists("ledgerEntry", id)).toBe(false);
    expect(await exists("generation", settled.id)).toBe(false);
    expect(await fileExists(settled.keys[0]!)).toBe(false);
    expect(await exists("generation", unsettled.id)).toBe(false);
    expect(await balanceText(accountId)).toBe(balance);
  });

  it("a purged add still refuses a second add for its source: a yearly Starter contract period is credited once", async () => {
    const accountId = await seedAccount("free", "0");
    const periodStart = new Date();
    await inTransaction((tx) => setManualPlan(tx, { accountId, plan: "starter", interval: "year", periodStart }, periodStart));
    const credited = await balanceText(accountId);
    const sourceKey = `plan:${accountId}:${periodStart.toISOString()}`;
    expect(await db.ledgerEntry.count({ where: { accountId, type: "add", sourceKey } })).toBe(1);

    // 100 days on, Starter's 90-day ledger window has passed; the year's period has not.
    const later = new Date(periodStart.getTime() + 100 * 24 * 3600_000);
    expect((await runRetention(db, accountScope(accountId), { now: later })).removed.ledger_entries).toBe(1);
    expect(await db.ledgerEntry.count({ where: { accountId, type: "add", sourceKey } })).toBe(0);
    expect(await db.ledgerPurgedSource.findUnique({ where: { sourceKey } })).toMatchObject({ accountId });

    expect(await inTransaction((tx) => renewManualPlan(tx, accountScope(accountId), later))).toEqual({ granted: [] });
    expect(await inTransaction((tx) => addCredits(tx, { accountId, amountMillis: 1000, sourceKey, description: "again" }))).toMatchObject({
      applied: false,
      reason: "duplicate_source",
    });
    expect(await balanceText(accountId)).toBe(credited);
  });

  it("keeps pending deliveries and unreplayed dead letters; drops a dead letter replayed past the window", async () => {
    const now = futureNow();
    const accountId = await seedAccount("free");
    const endpointId = await seedEndpoint(accountId);
    const old = secondsBefore(now, 2 * 24 * 3600_000);
    const pendingDelivery = await seedDelivery(accountId, endpointId, old, "pending");
    const failedDelivery = await seedDelivery(accountId, endpointId, old, "failed");
    // Re-sent lately: the delivery is old, its last attempt is not.
    const resent = await seedDelivery(accountId, endpointId, old, "delivered");
    await db.webhookDelivery.update({ where: { id: resent }, data: { lastAttemptAt: now, attemptCount: 2 } });
    await db.webhookAttempt.create({ data: { deliveryId: resent, attemptNumber: 2, statusCode: 200, createdAt: now } });
    const deadLetter = (reason: string, replayedAt: Date | null) =>
      db.deadLetter.create({
        data: {
          accountId,
          endpointId,
          event: "generation.completed",
          eventKey: `k:${reason}`,
          payload: {},
          reason,
          createdAt: old,
          replayedAt,
        },
      });
    const waiting = await deadLetter("waiting", null);
    const replayedLongAgo = await deadLetter("replayed", old);

    const pass = await runRetention(db, accountScope(accountId), { now });
    // Attempts: the pending one's, the failed one's and the re-sent one's first (three); deliveries: the failed one.
    expect(pass.removed).toMatchObject({ webhook_attempts: 3, webhook_deliveries: 1, dead_letters: 1 });
    expect(await exists("webhookDelivery", pendingDelivery)).toBe(true);
    expect(await exists("webhookDelivery", failedDelivery)).toBe(false);
    expect(await exists("webhookDelivery", resent)).toBe(true);
    expect(await db.webhookAttempt.findMany({ where: { deliveryId: resent }, select: { attemptNumber: true } })).toEqual([
      { attemptNumber: 2 },
    ]);
    expect(await db.deadLetter.count({ where: { id: waiting.id } })).toBe(1);
    expect(await db.deadLetter.count({ where: { id: replayedLongAgo.id } })).toBe(0);
  });

  it("deletes more rows than one batch, batch after batch", async () => {
    const now = futureNow();
    const accountId = await seedAccount("free");
    const old = secondsBefore(now, 2 * 24 * 3600_000);
    const many = 2 * RETENTION_BATCH_SIZE + 17;
    await db.activityEvent.createMany({
      data: Array.from({ length: many }, (_, index) => ({
        accountId,
        actor: "system",
        category: "credit" as const,
        action: "credit.added",
        description: `bulk ${index}`,
        createdAt: old,
      })),
    });
    await seedRequestLogs(
      Array.from({ length: RETENTION_BATCH_SIZE }, () => ({ accountId, requestId: "r", endpoint: "/v1/x", createdAt: old })),
    );
    const young = await seedActivity(accountId, now);
    const pass = await runRetention(db, accountScope(accountId), { now });
    expect(pass.removed).toMatchObject({ activity_events: many, request_logs: RETENTION_BATCH_SIZE });
    expect(await db.activityEvent.count({ where: { accountId } })).toBe(1);
    expect(await exists("activityEvent", young)).toBe(true);
  });

  it("deletes generations and their files in small batches too", async () => {
    const now = futureNow();
    const accountId = await seedAccount("pro");
    const old = secondsBefore(now, 31 * 24 * 3600_000);
    const rows = [];
    for (let index = 0; index < 8; index += 1) rows.push(await seedGeneration(accountId, old, "succeeded", 1));
    const pass = await runRetention(db, accountScope(accountId), { now, batchSize: 3 });
    expect(pass.removed).toMatchObject({ generations: 8, files: 8 });
    for (const row of rows) expect(await fileExists(row.keys[0]!)).toBe(false);
  });

  it("keeps a record whose files could not be deleted, counts it deferred, and goes on", async () => {
    const now = futureNow();
    const accountId = await seedAccount("free");
    const old = secondsBefore(now, 2 * 24 * 3600_000);
    const ok = await seedGeneration(accountId, secondsBefore(old, 1000), "succeeded", 1);
    // A key storage refuses to touch stands in for storage being unreachable.
    const stuck = await seedGeneration(accountId, old, "succeeded", 0);
    await db.generation.update({ where: { id: stuck.id }, data: { outputKeys: ["../outside"] } });
    const pass = await runRetention(db, accountScope(accountId), { now });
    expect(pass.removed).toMatchObject({ generations: 1, files: 1 });
    expect(pass.deferred).toEqual({ generations: 1 });
    expect(await exists("generation", ok.id)).toBe(false);
    expect(await exists("generation", stuck.id)).toBe(true);
  });

  it("never touches another account, and the operator pass reaches every account page by page", async () => {
    const now = futureNow();
    const mine = await seedAccount("free");
    const other = await seedAccount("free");
    const old = secondsBefore(now, 2 * 24 * 3600_000);
    const theirs = await seedActivity(other, old);
    await seedActivity(mine, old);
    expect((await runRetention(db, accountScope(mine), { now })).removed.activity_events).toBe(1);
    expect(await exists("activityEvent", theirs)).toBe(true);

    // As of long before anything here existed: nothing is old enough, every account is visited.
    const accounts = await db.account.count();
    const pass = await runRetention(db, OPERATOR, { now: new Date("2001-01-01T00:00:00Z"), pageSize: 7 });
    expect(pass.accounts).toBeGreaterThanOrEqual(accounts);
    expect(pass.removed).toEqual(ZERO);
  });

  it("an operator's pass removes sent and failed e-mails queued more than 7 days before; queued ones and younger ones stay; an account's pass touches none", async () => {
    // A moment after the "long before anything" passes above and in cli.test.ts (2001-01-01): rows
    // old at this moment are young at theirs, so those passes keep counting nothing.
    const now = new Date("2001-02-01T00:00:00Z");
    const email = async (status: "queued" | "sent" | "failed", daysBefore: number, seconds = 0) => {
      const { id } = await queueEmail(db, {
        to: uniqueEmail("retention-mail"),
        subject: "s",
        text: "t",
        html: "<p>t</p>",
        kind: "test.retention",
      });
      const createdAt = secondsBefore(now, daysBefore * 24 * 3600_000, seconds);
      await db.emailOutbox.update({ where: { id }, data: { status, createdAt, sentAt: status === "queued" ? null : createdAt } });
      return id;
    };
    const oldSent = await email("sent", 7, -1);
    const oldFailed = await email("failed", 30);
    const oldQueued = await email("queued", 30);
    const atBoundary = await email("sent", 7);
    const young = await email("sent", 6);
    const mine = await seedAccount("free");

    expect((await runRetention(db, accountScope(mine), { now })).removed.sent_emails).toBe(0);
    expect(await db.emailOutbox.count({ where: { id: oldSent } })).toBe(1);

    const pass = await runRetention(db, OPERATOR, { now });
    expect(pass.removed.sent_emails).toBe(2);
    const left = await db.emailOutbox.findMany({
      where: { id: { in: [oldSent, oldFailed, oldQueued, atBoundary, young] } },
      select: { id: true },
    });
    expect(left.map((row) => row.id).sort()).toEqual([oldQueued, atBoundary, young].sort());
  });

  it("runs hourly as the `retention` function", () => {
    const fn = functions.find((candidate) => candidate.id().endsWith("retention"));
    expect(fn).toBeDefined();
  });
});
