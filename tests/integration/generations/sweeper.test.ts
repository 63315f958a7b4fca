import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { resendLostRequests, sweepStaleGenerations } from "@/server/jobs/functions/sweep-stale-generations";
import { recordingEventSink } from "@/tests/support/event-sink";
import { inTransaction } from "@/server/base/transaction";

// The sweeper: no reservation is ever orphaned by a generation stuck in flight.

async function stuckGeneration(accountId: string, status: "pending" | "processing", createdAt: Date) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status,
      estimatedCost: "0.002",
      providerOrder: ["local", "local-backup"],
      createdAt,
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
  return generation.id;
}

describe("sweepStaleGenerations", () => {
  it("fails and refunds generations past every provider's timeout, and leaves younger ones", async () => {
    const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `sweep-${randomUUID()}@test.local` }));
    const now = new Date();
    // lumen-image: 60 s timeout × 2 providers + 60 s margin = 180 s.
    const stale = await stuckGeneration(accountId, "processing", new Date(now.getTime() - 200_000));
    const stalePending = await stuckGeneration(accountId, "pending", new Date(now.getTime() - 500_000));
    const young = await stuckGeneration(accountId, "processing", new Date(now.getTime() - 100_000));

    // The running app's own cron may sweep them first; either way each ends failed exactly once.
    const { swept } = await sweepStaleGenerations(now);
    expect(swept).not.toContain(young);

    for (const id of [stale, stalePending]) {
      const row = await db.generation.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: "failed", errorCode: "ERR4001" });
      expect((await db.ledgerEntry.findMany({ where: { generationId: id } })).map((entry) => entry.type).sort()).toEqual([
        "refund",
        "reserve",
      ]);
    }
    expect((await db.generation.findUniqueOrThrow({ where: { id: young } })).status).toBe("processing");
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(Number(account.creditBalance)).toBe(0.998);

    // A second sweep changes nothing.
    const again = await sweepStaleGenerations(now);
    expect(again.swept).not.toContain(stale);
    expect(await db.ledgerEntry.count({ where: { generationId: stale, type: "refund" } })).toBe(1);
  });
});

describe("sweepStaleGenerations, past a page", () => {
  it("finds a stale generation behind 600 older in-flight ones that are not stale yet", async () => {
    const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `sweep-page-${randomUUID()}@test.local` }));
    const now = new Date();
    // A model the catalog does not know gets 600 s; created 300 s ago, these are older but not stale.
    await db.generation.createMany({
      data: Array.from({ length: 600 }, () => ({
        accountId,
        region: "us" as const,
        mediaKind: "image" as const,
        modelIdentifier: "test/slow-model",
        status: "processing" as const,
        estimatedCost: "0",
        createdAt: new Date(now.getTime() - 300_000),
      })),
    });
    try {
      const stale = await stuckGeneration(accountId, "processing", new Date(now.getTime() - 250_000));
      await sweepStaleGenerations(now);
      expect((await db.generation.findUniqueOrThrow({ where: { id: stale } })).status).toBe("failed");
      expect(await db.generation.count({ where: { accountId, modelIdentifier: "test/slow-model", status: "processing" } })).toBe(600);
    } finally {
      await db.generation.deleteMany({ where: { accountId, modelIdentifier: "test/slow-model" } });
    }
  });
});

describe("resendLostRequests", () => {
  const { sink, sent } = recordingEventSink();
  beforeAll(() => registerExecutor(sink));
  afterAll(() => unregisterExecutor(sink));

  it("sends generation/requested again for a pending generation that never got a run, under its own id", async () => {
    const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `resend-${randomUUID()}@test.local` }));
    const now = new Date();
    const lost = await stuckGeneration(accountId, "pending", new Date(now.getTime() - 60_000));
    const fresh = await stuckGeneration(accountId, "pending", new Date(now.getTime() - 5_000));
    const started = await stuckGeneration(accountId, "pending", new Date(now.getTime() - 60_000));
    await db.providerAttempt.create({
      data: {
        generationId: started,
        accountId,
        region: "us",
        modelIdentifier: "darkroom/lumen-image",
        provider: "local",
        attemptNumber: 1,
      },
    });

    const { resent } = await resendLostRequests(now);
    expect(resent).not.toContain(fresh);
    expect(resent).not.toContain(started);
    if (resent.includes(lost)) {
      const requested = sent.filter((event) => event.name === "generation/requested" && event.data.generationId === lost);
      expect(requested).toEqual([expect.objectContaining({ id: `generation-requested:${lost}`, data: { generationId: lost, accountId } })]);
    } else {
      // The running app's own cron (every minute, same database) resent it first: its run then
      // took the generation (an attempt, or no longer pending), so this call rightly skipped it.
      // Had neither resent it, it would still be pending without an attempt.
      const row = await db.generation.findUniqueOrThrow({
        where: { id: lost },
        select: { status: true, _count: { select: { attempts: true } } },
      });
      expect(
        row.status !== "pending" || row._count.attempts > 0,
        `resent by neither this call nor the app's cron: ${JSON.stringify(row)}`,
      ).toBe(true);
    }
  });
});
