import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { createAccount } from "@/server/accounts/create-account";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import { expireAtDeadline, expireGeneration } from "@/server/generations/deadline/expire-generation";
import { finishFailed, finishSucceeded } from "@/server/generations/run/finish-generation";
import { expireOverdueGenerations } from "@/server/jobs/functions/sweep-stale-generations";
import { inTransaction } from "@/server/base/transaction";
import { getUsage } from "@/server/usage/get-usage";
import { ledgerOf } from "@/tests/support/generations";

// The deadline's transition against the run's own (issue #30 §2): a result after the deadline is
// discarded and never charged; a finish and the deadline at the same moment end the generation
// once, whichever commits first; the sweeper cancels what is overdue.

async function account() {
  return (await inTransaction((tx) => createAccount(tx, { email: `deadline-${randomUUID()}@test.local` }))).account_id;
}

/** A processing generation with its reservation and a running attempt on `local`. */
async function processing(accountId: string, deadlineAt: Date) {
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      status: "processing",
      estimatedCost: "0.002",
      providerOrder: ["local"],
      providerUsed: "local",
      predictionId: `local-${randomUUID()}`,
      deadlineAt,
      createdAt: new Date(deadlineAt.getTime() - 5_000),
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
  await db.providerAttempt.create({
    data: {
      generationId: generation.id,
      accountId,
      region: "us",
      modelIdentifier: "darkroom/lumen-image",
      provider: "local",
      attemptNumber: 1,
      startedAt: new Date(deadlineAt.getTime() - 4_000),
    },
  });
  return generation.id;
}

describe("a result that arrives after the deadline", () => {
  it("is discarded, counted as discarded in usage, and the generation is canceled at its deadline, refunded, never charged", async () => {
    const accountId = await account();
    const generationId = await processing(accountId, new Date(Date.now() - 1_000));

    expect(await finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: 4 })).toEqual({ succeeded: false });

    const row = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
    expect(row).toMatchObject({ status: "canceled", errorCode: "ERR4006", outputKeys: [] });
    const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId } });
    expect(attempt).toMatchObject({ outcome: "discarded", wasted: true });
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "refund:0.002"]);

    const usage = await getUsage(db, accountScope(accountId), { days: 1, region: "us" });
    expect(usage.usage_providers).toEqual([expect.objectContaining({ provider: "local", discarded_count: 1, used_count: 0 })]);
  });

  it("the run's failure after the deadline is a cancel at the deadline too (ERR4006, refunded once)", async () => {
    const accountId = await account();
    const generationId = await processing(accountId, new Date(Date.now() - 1_000));
    expect(await finishFailed({ generationId, errors: [{ provider: "local", code: "ERR4002", message: "down", failover: true }] })).toEqual(
      { failed: false },
    );
    expect(await db.generation.findUniqueOrThrow({ where: { id: generationId } })).toMatchObject({
      status: "canceled",
      errorCode: "ERR4006",
    });
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "refund:0.002"]);
  });
});

describe("the deadline and a finish at the same moment", () => {
  it("end each generation once: succeeded and charged, or canceled at the deadline and refunded, never both", async () => {
    const accountId = await account();
    // The deadline's clock says it has passed; the run's (this process's) does not yet: either may commit first.
    const deadlineAt = new Date(Date.now() + 60_000);
    const ids = await Promise.all(Array.from({ length: 12 }, () => processing(accountId, deadlineAt)));
    const expiries = await Promise.all(
      ids.flatMap((generationId) => [
        inTransaction((tx) => expireGeneration(tx, { generationId, now: deadlineAt })),
        finishSucceeded({ generationId, attempt: 1, outputKeys: [], predictTimeSeconds: 1 }).then(() => null),
      ]),
    );
    const canceledByDeadline = expiries.filter((expiry) => expiry?.outcome === "canceled").length;

    for (const generationId of ids) {
      const row = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
      const ledger = await ledgerOf(generationId);
      const attempt = await db.providerAttempt.findFirstOrThrow({ where: { generationId } });
      if (row.status === "succeeded") {
        expect(ledger).toEqual(["reserve:0.002", "charge:0.002"]);
        expect(attempt.outcome).toBe("succeeded");
      } else {
        expect(row).toMatchObject({ status: "canceled", errorCode: "ERR4006" });
        expect(ledger).toEqual(["reserve:0.002", "refund:0.002"]);
        expect(attempt.outcome).toBe("discarded");
      }
      const endings = {
        accountId,
        action: { in: ["generation.succeeded", "generation.canceled"] },
        metadata: { path: ["generation_id"], equals: generationId },
      };
      expect(await db.activityEvent.count({ where: endings })).toBe(1);
    }
    // Each was ended by exactly one of the two: the deadline's cancels are the canceled ones.
    expect(await db.generation.count({ where: { id: { in: ids }, status: "canceled" } })).toBe(canceledByDeadline);
    expect(await db.generation.count({ where: { id: { in: ids }, status: { in: ["canceled", "succeeded"] } } })).toBe(ids.length);
  });

  it("a second cancel at the deadline changes nothing", async () => {
    const accountId = await account();
    const generationId = await processing(accountId, new Date(Date.now() - 100));
    const results = await Promise.all([expireAtDeadline(generationId), expireAtDeadline(generationId), expireAtDeadline(generationId)]);
    // The running app's sweeper may have been first; at most one of these canceled it.
    expect(results.filter((result) => result.outcome === "canceled").length).toBeLessThanOrEqual(1);
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "refund:0.002"]);
  });
});

describe("expireOverdueGenerations (the sweeper)", () => {
  it("cancels in-flight generations past their deadline and leaves the others", async () => {
    const accountId = await account();
    const now = new Date();
    const overdue = await processing(accountId, new Date(now.getTime() - 10_000));
    const ahead = await processing(accountId, new Date(now.getTime() + 600_000));
    const { expired } = await expireOverdueGenerations(now);
    expect(expired).not.toContain(ahead);
    expect(await db.generation.findUniqueOrThrow({ where: { id: overdue } })).toMatchObject({ status: "canceled", errorCode: "ERR4006" });
    expect(await db.generation.findUniqueOrThrow({ where: { id: ahead } })).toMatchObject({ status: "processing" });
    expect(await ledgerOf(overdue)).toEqual(["reserve:0.002", "refund:0.002"]);
  });
});
