import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import { accountScope } from "@/server/base/account-scope";
import { requestCancel } from "@/server/generations/cancel-generation";
import { queueGenerationFinished } from "@/server/generations/send-generation-finished";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { afterCommit, inTransaction, withSavepoint } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { toGenerationRecord } from "@/server/generations/records/public-record";
import { emitGenerationEvent, emitGenerationStarted, findGenerationStarted } from "@/server/generations/emit-generation-event";
import { recordingEventSink } from "@/tests/support/event-sink";

// A terminal transition queues its webhook deliveries in its own transaction (no generation/finished
// event and no webhook-fan-out run on the way), under a savepoint: a webhook problem rolls back to
// it, never the transition, and the event after the commit has webhook-fan-out queue them instead.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(() => unregisterExecutor(sink));

async function accountWithEndpoint() {
  const { account_id: accountId } = await inTransaction((tx) =>
    createAccount(tx, { email: `terminal-webhooks-${randomUUID()}@test.local`, credits: 10 }),
  );
  await inTransaction((tx) =>
    createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/hooks", events: ["generation.canceled"], actor: "system" }),
  );
  return accountId;
}

describe("withSavepoint", () => {
  it("undoes only its own writes and after-commit jobs when it throws; the transaction goes on and commits", async () => {
    const accountId = await accountWithEndpoint();
    const ran: string[] = [];
    await inTransaction(async (tx) => {
      await tx.account.update({ where: { id: accountId }, data: { name: "outer write" } });
      afterCommit(tx, "outer", async () => ran.push("outer"));
      await expect(
        withSavepoint(tx, "inner_work", async () => {
          await tx.account.update({ where: { id: accountId }, data: { name: "inner write" } });
          afterCommit(tx, "inner", async () => ran.push("inner"));
          await tx.$executeRawUnsafe("SELECT 1/0");
        }),
      ).rejects.toThrow(/division by zero/);
      // Still usable: the error aborted only the savepoint.
      expect((await tx.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe("outer write");
    });
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe("outer write");
    expect(ran).toEqual(["outer"]);
  });

  it("keeps its writes and jobs when it succeeds, and refuses a name that is not a plain identifier", async () => {
    const accountId = await accountWithEndpoint();
    const ran: string[] = [];
    await inTransaction(async (tx) => {
      await withSavepoint(tx, "inner_work", async () => {
        await tx.account.update({ where: { id: accountId }, data: { name: "inner write" } });
        afterCommit(tx, "inner", async () => ran.push("inner"));
      });
      await expect(withSavepoint(tx, "x; DROP TABLE account", async () => 1)).rejects.toThrow(/not a savepoint name/);
    });
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe("inner write");
    expect(ran).toEqual(["inner"]);
  });
});

describe("terminal webhooks", () => {
  it("a cancel commits its generation.canceled delivery with the refund, and sends no fan-out event", async () => {
    const accountId = await accountWithEndpoint();
    const generation = await db.generation.create({
      data: {
        accountId,
        region: "us",
        mediaKind: "image",
        modelIdentifier: "darkroom/lumen-image",
        status: "processing",
        estimatedCost: "0.002",
        providerOrder: ["local"],
      },
    });
    await inTransaction((tx) =>
      reserveCredits(tx, {
        accountId,
        generationId: generation.id,
        amountMillis: 2,
        modelIdentifier: "darkroom/lumen-image",
        description: "test",
      }),
    );
    await inTransaction((tx) => requestCancel(tx, accountScope(accountId), { generationId: generation.id }));
    const deliveries = await db.webhookDelivery.findMany({ where: { eventKey: `generation.canceled:${generation.id}` } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.payload).toMatchObject({
      webhook_data: { generation_id: generation.id, generation_status: "canceled", credits_refunded: true },
    });
    expect(sent.filter((event) => event.name === "generation/finished" && event.data.generationId === generation.id)).toEqual([]);
  });

  it("queues nothing for an event no endpoint of the account takes; a subscriber gets the record exactly as Prisma's row reads", async () => {
    const accountId = await accountWithEndpoint(); // subscribed to generation.canceled only
    const generation = await db.generation.create({
      data: {
        accountId,
        region: "us",
        mediaKind: "image",
        modelIdentifier: "darkroom/lumen-image",
        status: "succeeded",
        estimatedCost: "0.002",
        providerOrder: ["local"],
        providerUsed: "local",
        prompt: "a record to compare",
        ratio: "16:9",
        outputFormat: "png",
        metricsTotalTime: 0.0421,
        metricsPredictTime: 0.0307,
        startedAt: new Date(Date.now() - 42),
        completedAt: new Date(),
      },
      include: { account: { select: { plan: true } } },
    });
    const completedKey = `generation.completed:${generation.id}`;
    expect(await inTransaction((tx) => emitGenerationEvent(tx, generation.id, "generation.completed"))).toEqual({
      created: [],
      duplicates: [],
      deadLetters: [],
    });
    expect(await inTransaction((tx) => emitGenerationEvent(tx, randomUUID(), "generation.completed"))).toBeNull();
    expect(await findGenerationStarted(db, generation.id)).toBeNull();
    expect(await db.webhookDelivery.count({ where: { accountId } })).toBe(0);

    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId,
        url: "http://127.0.0.1:9/all",
        events: ["generation.completed", "generation.started"],
        actor: "system",
      }),
    );
    const queued = await inTransaction((tx) => emitGenerationEvent(tx, generation.id, "generation.completed"));
    expect(queued?.created).toHaveLength(1);
    const started = await findGenerationStarted(db, generation.id);
    expect(started).not.toBeNull();
    await inTransaction((tx) => emitGenerationStarted(tx, started!));
    const deliveries = await db.webhookDelivery.findMany({ where: { accountId }, orderBy: { event: "asc" } });
    expect(deliveries.map((delivery) => delivery.eventKey)).toEqual([completedKey, `generation.started:${generation.id}`]);
    const { account, ...row } = generation;
    expect((deliveries[0]!.payload as { webhook_data: unknown }).webhook_data).toEqual(
      JSON.parse(JSON.stringify(toGenerationRecord(row, account.plan))),
    );
  });

  it("a webhook problem rolls back to its savepoint: the transition commits and generation/finished leaves after it", async () => {
    const accountId = await accountWithEndpoint();
    const generation = await db.generation.create({
      data: {
        accountId,
        region: "us",
        mediaKind: "image",
        modelIdentifier: "darkroom/lumen-image",
        status: "canceled",
        estimatedCost: "0.002",
        providerOrder: ["local"],
      },
    });
    // The database refuses this generation's delivery (and only it): a failure inside the savepoint.
    const refuse = `test_refuse_${generation.id.replaceAll("-", "")}`;
    await db.$executeRawUnsafe(`CREATE FUNCTION ${refuse}() RETURNS trigger AS $$ BEGIN
      IF NEW.event_key = 'generation.canceled:${generation.id}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(`CREATE TRIGGER ${refuse} BEFORE INSERT ON webhook_delivery FOR EACH ROW EXECUTE FUNCTION ${refuse}()`);
    try {
      await inTransaction(async (tx) => {
        await tx.account.update({ where: { id: accountId }, data: { name: "transition" } });
        await queueGenerationFinished(tx, generation.id, accountId, "canceled");
      });
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER ${refuse} ON webhook_delivery`);
      await db.$executeRawUnsafe(`DROP FUNCTION ${refuse}()`);
    }
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe("transition");
    expect(await db.webhookDelivery.count({ where: { eventKey: `generation.canceled:${generation.id}` } })).toBe(0);
    expect(sent.filter((event) => event.name === "generation/finished" && event.data.generationId === generation.id)).toEqual([
      expect.objectContaining({
        id: `generation-finished:${generation.id}`,
        data: { generationId: generation.id, accountId, status: "canceled" },
      }),
    ]);
  });
});
