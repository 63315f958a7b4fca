import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { cli } from "@/tests/support/cli";
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
  seedRequestLog,
  specWindows,
} from "@/tests/support/retention";

// `npm run cli -- retention:run [--now ISO] [--account A]` as operators run it: one JSON object
// with the counts removed, the rows and files gone, the balance column untouched.

afterAll(async () => {
  await disconnectDb();
});

describe("cli: retention:run", () => {
  it("--now: removes what is one second past each Starter window, keeps what is one second inside, and prints the counts", async () => {
    const now = futureNow();
    const accountId = await seedAccount("starter");
    const endpointId = await seedEndpoint(accountId);
    const w = specWindows.starter;
    const seed = async (seconds: number) => ({
      generation: await seedGeneration(accountId, secondsBefore(now, w.generations, seconds)),
      requestLog: await seedRequestLog(accountId, secondsBefore(now, w.requestLogs, seconds)),
      delivery: await seedDelivery(accountId, endpointId, secondsBefore(now, w.webhookLogs, seconds)),
      activity: await seedActivity(accountId, secondsBefore(now, w.activity, seconds)),
      ledger: await seedLedgerAdd(accountId, secondsBefore(now, w.ledger, seconds)),
    });
    const inside = await seed(1);
    const outside = await seed(-1);
    const balance = await balanceText(accountId);

    const run = await cli(["retention:run", "--now", now.toISOString(), "--account", accountId]);
    expect(run.code).toBe(0);
    expect(run.body).toEqual({
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
    for (const [rows, present] of [
      [inside, true],
      [outside, false],
    ] as const) {
      expect(await exists("generation", rows.generation.id)).toBe(present);
      for (const key of rows.generation.keys) expect(await fileExists(key)).toBe(present);
      expect(await exists("requestLog", rows.requestLog)).toBe(present);
      expect(await exists("webhookDelivery", rows.delivery)).toBe(present);
      expect(await exists("activityEvent", rows.activity)).toBe(present);
      expect(await exists("ledgerEntry", rows.ledger)).toBe(present);
    }
    expect(await balanceText(accountId)).toBe(balance);

    const again = await cli(["retention:run", "--now", now.toISOString(), "--account", accountId]);
    expect(again.code).toBe(0);
    expect(Object.values(again.body.removed as Record<string, number>).every((count) => count === 0)).toBe(true);
  }, 120_000);

  it("without --account visits every account; as of 2001 nothing is old enough", async () => {
    const accounts = await db.account.count();
    const run = await cli(["retention:run", "--now", "2001-01-01T00:00:00Z"]);
    expect(run.code).toBe(0);
    expect(run.body.now).toBe("2001-01-01T00:00:00.000Z");
    expect(run.body.accounts).toBeGreaterThanOrEqual(accounts);
    expect(Object.values(run.body.removed as Record<string, number>).every((count) => count === 0)).toBe(true);
  }, 120_000);

  it("refuses a --now that is not an ISO 8601 date-time and an --account that is not a UUID (exit 2, ERR1001)", async () => {
    const [notIso, impossible, badAccount] = await Promise.all([
      cli(["retention:run", "--now", "yesterday"]),
      cli(["retention:run", "--now", "2026-02-30T25:00:00Z"]),
      cli(["retention:run", "--account", "acc_1"]),
    ]);
    for (const [run, field] of [
      [notIso, "now"],
      [impossible, "now"],
      [badAccount, "account"],
    ] as const) {
      expect(run.code).toBe(2);
      expect(run.body.error).toMatchObject({ code: "ERR1001" });
      expect(JSON.stringify(run.body.error)).toContain(field);
    }
  }, 120_000);
});
