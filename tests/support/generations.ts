import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { db } from "@/server/base/db";
import type { Prisma } from "@/server/base/generated/prisma/client";
import type { DataOf } from "@/server/edge/http/define-operation";
import { cancelGeneration, createImageGeneration, createVideoGeneration, getGeneration } from "@/server/edge/http/operations/generations";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { until, UntilTimeout } from "@/tests/support/until";

// Create, poll and cancel helpers for the generation suites: clients poll until a terminal state.

export const TERMINAL = ["succeeded", "failed", "canceled"];

type GenerationRecord = DataOf<typeof getGeneration>;

export async function createImage(
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  model = "darkroom/lumen-image",
) {
  return callOperation(createImageGeneration, { key, params: { model_identifier: model }, body, headers });
}

export async function createVideo(
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  model = "darkroom/lumen-video",
) {
  return callOperation(createVideoGeneration, { key, params: { model_identifier: model }, body, headers });
}

export const cancel = (key: string, generationId: string) =>
  callOperation(cancelGeneration, { key, params: { generation_id: generationId } });

export async function waitForStatus(
  key: string,
  generationId: string,
  wanted: string[] = TERMINAL,
  timeoutMs?: number,
): Promise<GenerationRecord> {
  let last: GenerationRecord | undefined;
  try {
    return await until(
      async () => {
        last = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: generationId } }));
        return wanted.includes(last.generation_status) && last;
      },
      `generation ${generationId} ${wanted.join("/")}`,
      // ~120 polls a minute at most: under every plan's general rate limit but Free's.
      { timeoutMs, everyMs: 450 },
    );
  } catch (error) {
    if (!(error instanceof UntilTimeout)) throw error;
    return expect.fail(
      `generation ${generationId} stayed ${last?.generation_status} instead of ${wanted.join("/")}; ${await executorTrace(generationId)}`,
    );
  }
}

/** Once the generation's run is over (completed or failed): no late provider result can change it after that. */
export const generationRunOver = (generationId: string) =>
  until(
    () => db.inngestRun.findFirst({ where: { eventId: `generation-requested:${generationId}`, status: { in: ["completed", "failed"] } } }),
    `the run of generation ${generationId} over`,
  );

/** Where a generation's run stands in the executor's tables: a stalled test names its cause. */
async function executorTrace(generationId: string): Promise<string> {
  const eventId = `generation-requested:${generationId}`;
  const [event, runs, attempts] = await Promise.all([
    db.inngestEvent.findFirst({ where: { id: eventId }, select: { receivedAt: true, dispatchedAt: true } }),
    db.inngestRun.findMany({
      where: { eventId },
      select: {
        functionId: true,
        status: true,
        wakeAt: true,
        leaseOwner: true,
        leaseExpiresAt: true,
        attempts: true,
        createdAt: true,
        updatedAt: true,
      },
    }),
    db.providerAttempt.count({ where: { generationId } }),
  ]);
  return `executor: event ${JSON.stringify(event)}, runs ${JSON.stringify(runs)}, attempts ${attempts}, now ${new Date().toISOString()}`;
}

/** A generation of one account and a key of another (the ERR1006 cases). */
export async function someoneElsesGeneration() {
  const owner = await accountWithKey();
  const stranger = await accountWithKey();
  const { generation_id } = expectSuccess(await createImage(owner.key, { generation_prompt: "mine" }), 202);
  return { owner, stranger, generationId: generation_id };
}

/** The ledger entries of a generation, oldest first, as `type:amount`. */
export async function ledgerOf(generationId: string) {
  return (await db.ledgerEntry.findMany({ where: { generationId }, orderBy: { createdAt: "asc" } })).map(
    (entry) => `${entry.type}:${entry.amount.toFixed(3)}`,
  );
}

/** The generation's one attempt, closed by a cancel: canceled, its latency up to the cancel, nothing wasted. */
export async function expectAttemptCanceled(generationId: string) {
  const attempts = await db.providerAttempt.findMany({ where: { generationId } });
  expect(attempts.map(({ outcome, wasted }) => ({ outcome, wasted }))).toEqual([{ outcome: "canceled", wasted: false }]);
  const { startedAt, finishedAt, latencyMs } = attempts[0]!;
  expect(finishedAt).toBeInstanceOf(Date);
  expect(latencyMs).toBe(finishedAt!.getTime() - startedAt.getTime());
}

export async function balanceOf(accountId: string) {
  return Number((await db.account.findUniqueOrThrow({ where: { id: accountId } })).creditBalance);
}

/** A succeeded image generation of the account written straight to the table (no run), with one output. */
export async function seedFinishedImage(accountId: string, data: Partial<Prisma.GenerationUncheckedCreateInput> = {}) {
  return db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: "darkroom/lumen-image",
      providerOrder: ["local"],
      estimatedCost: "0.020",
      prompt: "a lighthouse",
      status: "succeeded",
      outputKeys: [`outputs/${randomUUID()}/0.png`],
      providerUsed: "local",
      startedAt: new Date(Date.now() - 1000),
      completedAt: new Date(),
      ...data,
    },
    select: { id: true },
  });
}

/**
 * A darkroom/lumen-image generation in flight on `provider`, with its reservation and its first
 * attempt (started `startedAt`, 1.5 s ago by default), as a run leaves it before its finish.
 */
export async function inFlightWithAttempt(
  accountId: string,
  options: { amountMillis: number; provider: string; startedAt?: Date; deadlineAt?: Date },
) {
  const model = "darkroom/lumen-image";
  const { amountMillis, provider } = options;
  const startedAt = options.startedAt ?? new Date(Date.now() - 1_500);
  const generation = await db.generation.create({
    data: {
      accountId,
      region: "us",
      mediaKind: "image",
      modelIdentifier: model,
      status: "processing",
      estimatedCost: (amountMillis / 1000).toFixed(3),
      providerOrder: [provider],
      providerUsed: provider,
      createdAt: new Date(startedAt.getTime() - 40),
      startedAt,
      deadlineAt: options.deadlineAt ?? null,
    },
  });
  await inTransaction((tx) =>
    reserveCredits(tx, { accountId, generationId: generation.id, amountMillis, modelIdentifier: model, description: "test" }),
  );
  await db.providerAttempt.create({
    data: { generationId: generation.id, accountId, region: "us", modelIdentifier: model, provider, attemptNumber: 1, startedAt },
  });
  return generation.id;
}
