import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import { accountScope } from "@/server/base/account-scope";
import { cancelGeneration } from "@/server/generations/cancel-generation";
import { addWaiter } from "@/server/generations/finish-waiters";
import { finishFailed } from "@/server/generations/run/finish-generation";
import { inTransaction } from "@/server/base/transaction";

// A create waiting with `Prefer: wait` in the process that finishes its generation is woken when
// the terminal transition commits (an after-commit job), not by the NOTIFY round trip: this worker
// never listens on the channel, so only the in-process wake can reach these waiters. A transition
// that rolls back wakes no one.

async function processingGeneration() {
  const { account_id: accountId } = await inTransaction((tx) => createAccount(tx, { email: `wake-${randomUUID()}@test.local` }));
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
  return { accountId, generationId: generation.id };
}

function watch(generationId: string) {
  const woken: string[] = [];
  const stop = addWaiter(generationId, { wake: () => woken.push(generationId) });
  return { woken, stop };
}

describe("finish waiters in the finishing process", () => {
  it("are woken once the failure commits, before finishFailed returns", async () => {
    const { generationId } = await processingGeneration();
    const waiter = watch(generationId);
    try {
      expect(
        await finishFailed({ generationId, errors: [{ provider: "local", code: "ERR4002", message: "provider failed", failover: false }] }),
      ).toEqual({ failed: true });
      expect(waiter.woken).toEqual([generationId]);
    } finally {
      waiter.stop();
    }
  });

  it("are woken by a committed cancel, and not by one that rolls back", async () => {
    const { accountId, generationId } = await processingGeneration();
    const waiter = watch(generationId);
    try {
      await expect(
        inTransaction(async (tx) => {
          await cancelGeneration(tx, accountScope(accountId), { generationId, actor: "system" });
          throw new Error("rolled back on purpose");
        }),
      ).rejects.toThrow("rolled back on purpose");
      expect(waiter.woken).toEqual([]);
      expect((await db.generation.findUniqueOrThrow({ where: { id: generationId } })).status).toBe("processing");

      await inTransaction((tx) => cancelGeneration(tx, accountScope(accountId), { generationId, actor: "system" }));
      expect(waiter.woken).toEqual([generationId]);
    } finally {
      waiter.stop();
    }
  });

  it("of another generation stay asleep", async () => {
    const finished = await processingGeneration();
    const other = await processingGeneration();
    const waiter = watch(other.generationId);
    try {
      await finishFailed({
        generationId: finished.generationId,
        errors: [{ provider: "local", code: "ERR4002", message: "provider failed", failover: false }],
      });
      expect(waiter.woken).toEqual([]);
    } finally {
      waiter.stop();
    }
  });
});
