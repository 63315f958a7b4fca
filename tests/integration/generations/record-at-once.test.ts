import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setThresholds } from "@/server/alerts/thresholds";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { startGenerationAtOnce } from "@/server/generations/record-at-once";
import { startGeneration, type GenerationPlan } from "@/server/generations/start-generation";
import { decimalToMillis } from "@/server/base/money";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { imagePlan } from "../spend/support";

// The usual create is one autocommit statement (server/generations/record-at-once.ts) that must
// write exactly what the create's transaction writes, and nothing at all in every case that
// transaction decides otherwise, including a lock wait behind a create that changed the account.

const { sink, sent } = recordingEventSink();
const holders: pg.Client[] = [];
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(async () => {
  unregisterExecutor(sink);
  for (const client of holders) await client.end().catch(() => undefined);
});

async function fundedAccount(credits = 5, plan: "free" | "pro" = "free") {
  const account = await createTestAccount({ plan });
  await inTransaction((tx) =>
    addCredits(tx, {
      accountId: account.accountId,
      amountMillis: credits * 1000,
      sourceKey: `at-once:${account.accountId}`,
      description: "funds",
      actor: "system",
    }),
  );
  const key = await createTestKey(account.accountId);
  return { ...account, keyId: key.apikey_id };
}

/** Everything a create writes for its generation, with the ids that must differ replaced. */
async function written(accountId: string, generationId: string) {
  const [generation, entries, events, counters, account] = await Promise.all([
    db.generation.findUniqueOrThrow({ where: { id: generationId } }),
    db.ledgerEntry.findMany({ where: { generationId } }),
    db.activityEvent.findMany({ where: { accountId, action: "credit.reserved" } }),
    db.spendCounter.findMany({ where: { accountId }, orderBy: { budgetId: "asc" } }),
    db.account.findUniqueOrThrow({ where: { id: accountId } }),
  ]);
  const anonymous = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(generationId, "<generation>")
        .replaceAll(accountId, "<account>")
        .replaceAll(generation.apiKeyId ?? "<none>", "<key>")
        .replace(/"ledger_entry_id":"[0-9a-f-]{36}"/g, '"ledger_entry_id":"<entry>"'),
    );
  const { id: _id, createdAt: _created, updatedAt: _updated, params, ...record } = generation;
  const result = anonymous({
    generation: {
      ...record,
      params: { ...(params as Record<string, unknown>), generation_prompt: "<prompt>" },
      prompt: "<prompt>",
      createdEqualsUpdated: generation.createdAt.getTime() === generation.updatedAt.getTime(),
    },
    ledger: entries.map((entry) => ({
      type: entry.type,
      amount: entry.amount.toFixed(3),
      balanceAfter: entry.balanceAfter.toFixed(3),
      model: entry.modelIdentifier,
      description: entry.description,
      sourceKey: entry.sourceKey,
    })),
    activity: events.map((event) => ({
      actor: event.actor,
      category: event.category,
      description: event.description,
      metadata: event.metadata,
    })),
    counters: counters.map((row) => ({ budget: row.budgetId, used: row.used.toFixed(3) })),
    balance: account.creditBalance.toFixed(3),
  });
  // The account's counter and the key's, in a fixed order once named.
  result.counters.sort((one: { budget: string }, other: { budget: string }) => one.budget.localeCompare(other.budget));
  return result;
}

const fresh = (plan: GenerationPlan): GenerationPlan => ({ ...plan, generationId: randomUUID() });

/** The create statements waiting for the account lock `holderPid` holds, once there is one (or 0 after 2 s). */
async function statementsBlockedBy(holderPid: number | undefined) {
  const probe = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await probe.connect();
  holders.push(probe);
  for (let tries = 0; tries < 200; tries += 1) {
    const { rows } = await probe.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid)) AND query LIKE '%FOR NO KEY UPDATE OF a%'",
      [holderPid],
    );
    if ((rows[0]?.count ?? 0) > 0) return rows[0]?.count;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return 0;
}

describe("the usual create in one statement", () => {
  it("writes what the create's transaction writes: record, reservation, balance, activity, spend counters, the run's event", async () => {
    const [one, other] = [await fundedAccount(), await fundedAccount()];
    const [planOne, planOther] = [fresh(await imagePlan(one.accountId, one.keyId)), fresh(await imagePlan(other.accountId, other.keyId))];
    // The same request on both accounts: the prompt differs (imagePlan makes it unique), the rest is equal.
    const now = new Date();
    const created = await startGenerationAtOnce({ ...planOne, cancelAfterMs: 60_000, now });
    expect(created).toEqual({
      model_identifier: "darkroom/lumen-image",
      generation_provider_order: ["local"],
      generation_prediction_id: null,
      generation_id: planOne.generationId,
      generation_initialized: true,
    });
    await inTransaction((tx) => startGeneration(tx, { ...planOther, cancelAfterMs: 60_000, now }));

    expect(await written(one.accountId, planOne.generationId)).toEqual(await written(other.accountId, planOther.generationId));
    const after = await written(one.accountId, planOne.generationId);
    expect(after.ledger).toEqual([
      {
        type: "reserve",
        amount: "0.002",
        balanceAfter: "5.998",
        model: "darkroom/lumen-image",
        description: "Reserve for darkroom/lumen-image generation <generation>",
        sourceKey: null,
      },
    ]);
    expect(after.activity).toEqual([
      {
        actor: "system",
        category: "credit",
        description: "0.002 credits reserved for darkroom/lumen-image generation <generation>",
        metadata: {
          amount: 0.002,
          balance_after: 5.998,
          generation_id: "<generation>",
          ledger_entry_id: "<entry>",
          model_identifier: "darkroom/lumen-image",
        },
      },
    ]);
    expect(after.counters).toEqual([
      { budget: expect.any(String), used: "0.002" },
      { budget: expect.any(String), used: "0.002" },
    ]);
    // The run's event and the deadline's, sent once the statement committed (this sink is not an executor in this process).
    const names = (generationId: string) =>
      sent.filter((event) => (event.data as { generationId?: string }).generationId === generationId).map((event) => event.name);
    expect(names(planOne.generationId).sort()).toEqual(names(planOther.generationId).sort());
    expect(names(planOne.generationId)).toContain("generation/requested");
  });

  it("writes nothing, and answers null, for every case the transaction decides otherwise", async () => {
    const declined = async (accountId: string, plan: GenerationPlan) => {
      const before = {
        generations: await db.generation.count({ where: { accountId } }),
        entries: await db.ledgerEntry.count({ where: { accountId } }),
        sent: sent.length,
      };
      expect(await startGenerationAtOnce(fresh(plan))).toBeNull();
      expect({
        generations: await db.generation.count({ where: { accountId } }),
        entries: await db.ledgerEntry.count({ where: { accountId } }),
        sent: sent.length,
      }).toEqual(before);
    };
    // The balance is short of the cost (ERR1004).
    const poor = await fundedAccount(1);
    const poorPlan = await imagePlan(poor.accountId, poor.keyId);
    const balance = decimalToMillis((await db.account.findUniqueOrThrow({ where: { id: poor.accountId } })).creditBalance.toString());
    await declined(poor.accountId, { ...poorPlan, costMillis: balance + 1 });
    // At the free plan's cap of two images in flight (ERR1009).
    const busy = await fundedAccount();
    const busyPlan = await imagePlan(busy.accountId, busy.keyId);
    for (let index = 0; index < 2; index += 1) expect(await startGenerationAtOnce(fresh(busyPlan))).not.toBeNull();
    await declined(busy.accountId, busyPlan);
    // A spend limit on the account, then on the key (ERR1014 is the transaction's to answer).
    const limited = await fundedAccount();
    const limitedPlan = await imagePlan(limited.accountId, limited.keyId);
    await db.account.update({ where: { id: limited.accountId }, data: { monthlySpendLimit: "100" } });
    await declined(limited.accountId, limitedPlan);
    await db.account.update({ where: { id: limited.accountId }, data: { monthlySpendLimit: null } });
    await db.apiKey.update({ where: { id: limited.keyId }, data: { spendLimit: "100" } });
    await declined(limited.accountId, limitedPlan);
    // A revoked key, a deleted account.
    const revoked = await fundedAccount();
    await db.apiKey.update({ where: { id: revoked.keyId }, data: { status: "revoked" } });
    await declined(revoked.accountId, await imagePlan(revoked.accountId, revoked.keyId));
    const deleted = await fundedAccount();
    const deletedPlan = await imagePlan(deleted.accountId, deleted.keyId);
    await db.account.update({ where: { id: deleted.accountId }, data: { deletedAt: new Date() } });
    await declined(deleted.accountId, deletedPlan);
    // A low-balance threshold the reservation would cross: its alert records are the transaction's.
    const alerted = await fundedAccount(5);
    const alertedPlan = await imagePlan(alerted.accountId, alerted.keyId);
    await inTransaction((tx) => setThresholds(tx, { accountId: alerted.accountId, amounts: [5.999], actorUserId: alerted.userId }));
    await declined(alerted.accountId, alertedPlan);
  });

  it("with an Idempotency-Key, stores the key's completed record in the same statement; a key already held writes nothing", async () => {
    const account = await fundedAccount();
    const plan = await imagePlan(account.accountId, account.keyId);
    const expiresAt = new Date(Date.now() + 24 * 3600_000);
    const keyRecordFor = (key: string, requestId: string) => (answer: object) => ({
      key,
      requestHash: "hash-1",
      requestId,
      statusCode: 202,
      responseBody: { success: true, data: answer, request_id: requestId },
      expiresAt,
    });
    const key = `at-once-${randomUUID()}`;
    const first = fresh(plan);
    const created = await startGenerationAtOnce(first, keyRecordFor(key, "req-1"));
    expect(created?.generation_id).toBe(first.generationId);
    const record = await db.idempotencyRecord.findFirstOrThrow({ where: { accountId: account.accountId, key } });
    expect(record).toMatchObject({
      apiKeyLineageId: account.keyId,
      requestHash: "hash-1",
      state: "completed",
      requestId: "req-1",
      statusCode: 202,
      responseBody: { success: true, data: created, request_id: "req-1" },
      expiresAt,
    });
    expect(record.completedAt).not.toBeNull();

    // The same key again (a retry, or another body): no generation, no reservation, the first record untouched.
    const before = {
      generations: await db.generation.count({ where: { accountId: account.accountId } }),
      entries: await db.ledgerEntry.count({ where: { accountId: account.accountId } }),
    };
    expect(await startGenerationAtOnce(fresh(plan), keyRecordFor(key, "req-2"))).toBeNull();
    expect({
      generations: await db.generation.count({ where: { accountId: account.accountId } }),
      entries: await db.ledgerEntry.count({ where: { accountId: account.accountId } }),
    }).toEqual(before);
    expect(await db.idempotencyRecord.findMany({ where: { accountId: account.accountId, key } })).toEqual([record]);

    // A declined create (a spend limit: the transaction's to answer) stores no record either.
    await db.account.update({ where: { id: account.accountId }, data: { monthlySpendLimit: "100" } });
    const declinedKey = `declined-${randomUUID()}`;
    expect(await startGenerationAtOnce(fresh(plan), keyRecordFor(declinedKey, "req-3"))).toBeNull();
    expect(await db.idempotencyRecord.count({ where: { accountId: account.accountId, key: declinedKey } })).toBe(0);
  });

  it("writes nothing after waiting for the lock of a create that recorded a generation: its snapshot misses that one, the cap would not", async () => {
    const account = await fundedAccount();
    const plan = await imagePlan(account.accountId, account.keyId);
    // Free plan: two images in flight at most. One is.
    expect(await startGenerationAtOnce(fresh(plan))).not.toBeNull();
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    holders.push(holder);
    const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
    // A create elsewhere, not yet committed: it holds the account, records the second and reserves.
    await holder.query("BEGIN");
    await holder.query("UPDATE account SET credit_balance = credit_balance - 0.002, updated_at = now() WHERE id = $1", [account.accountId]);
    await holder.query(
      `INSERT INTO generation (id, account_id, region, media_kind, model_identifier, provider_order, estimated_cost, status, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'us', 'image', 'darkroom/lumen-image', '{local}', 0.002, 'pending', now(), now())`,
      [account.accountId],
    );
    const waiting = startGenerationAtOnce(fresh(plan));
    expect(await statementsBlockedBy(holderPid)).toBe(1);
    await holder.query("COMMIT");
    // Its snapshot counted one in flight; the account's row says something changed since: nothing written.
    expect(await waiting).toBeNull();
    expect(await db.generation.count({ where: { accountId: account.accountId } })).toBe(2);
    // The transaction, run next, counts both and refuses.
    await expect(inTransaction((tx) => startGeneration(tx, fresh(plan)))).rejects.toMatchObject({ code: "ERR1009" });
  });

  it("writes nothing after waiting for a threshold change it would cross (which writes the account row for this): the transaction fires it", async () => {
    const account = await fundedAccount(5);
    const plan = await imagePlan(account.accountId, account.keyId);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inside!: (pid: number) => void;
    const holding = new Promise<number>((resolve) => (inside = resolve));
    const setting = inTransaction(async (tx) => {
      await setThresholds(tx, { accountId: account.accountId, amounts: [5.999], actorUserId: account.userId });
      const [backend] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      inside(backend?.pid ?? 0);
      await gate;
    });
    const holderPid = await holding;
    const waiting = startGenerationAtOnce(fresh(plan));
    expect(await statementsBlockedBy(holderPid)).toBe(1);
    release();
    await setting;
    expect(await waiting).toBeNull();
    // The transaction sees the new threshold, reserves below it and fires it.
    await inTransaction((tx) => startGeneration(tx, fresh(plan)));
    expect(await db.alertThreshold.findMany({ where: { accountId: account.accountId }, select: { armed: true } })).toEqual([
      { armed: false },
    ]);
  });

  it("40 concurrent creates at a cap of 2, one statement first and the transaction after it: exactly 2 recorded and reserved", async () => {
    const account = await fundedAccount(50);
    const plan = await imagePlan(account.accountId, account.keyId);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const attempt = fresh(plan);
        if (await startGenerationAtOnce(attempt)) return "at once";
        return inTransaction((tx) => startGeneration(tx, attempt)).then(
          () => "in transaction",
          (error: { code?: string }) => error.code ?? "error",
        );
      }),
    );
    expect(outcomes.filter((outcome) => outcome === "at once" || outcome === "in transaction")).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome === "ERR1009")).toHaveLength(38);
    expect(await db.generation.count({ where: { accountId: account.accountId } })).toBe(2);
    const entries = await db.ledgerEntry.findMany({ where: { accountId: account.accountId, type: "reserve" } });
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((entry) => entry.balanceAfter.toFixed(3))).size).toBe(2);
  });
});
