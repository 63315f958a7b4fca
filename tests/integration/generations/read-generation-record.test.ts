import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb, sqlPool } from "@/server/base/db";
import { accountScope } from "@/server/base/account-scope";
import { ApiError } from "@/server/base/error-table";
import type { Prisma } from "@/server/base/generated/prisma/client";
import { toGenerationRecord } from "@/server/generations/records/public-record";
import { readGenerationRecord } from "@/server/generations/records/find-public-record";
import { findOwnGeneration } from "@/server/generations/records/own-generations";
import { ensureAuthSecret } from "@/server/start/secrets";
import { createTestAccount } from "@/tests/support/fixtures";

// The polled read (one SQL query for the record's columns) against the record made from the
// Prisma row, for every shape a record takes: succeeded with signed outputs, failed with its
// error, a video with its settings, removed. None is pending (the shared app's sweeper would run it).

beforeAll(() => ensureAuthSecret());
afterAll(() => disconnectDb());

const base = {
  region: "us" as const,
  modelIdentifier: "darkroom/lumen-image",
  providerOrder: ["local", "local-backup"],
  estimatedCost: "0.020",
  prompt: "a lighthouse",
};

const shapes: Record<string, Omit<Prisma.GenerationUncheckedCreateInput, "accountId">> = {
  succeeded: {
    ...base,
    mediaKind: "image",
    status: "succeeded",
    outputNumber: 2,
    outputKeys: [`outputs/${randomUUID()}/0.png`, `outputs/${randomUUID()}/1.png`],
    providerUsed: "local",
    predictionId: "local-123",
    ratio: "16:9",
    outputFormat: "png",
    inputFiles: ["https://example.com/in.png"],
    metricsTotalTime: 1.23456,
    metricsPredictTime: 0.5,
    startedAt: new Date(Date.now() - 2000),
    completedAt: new Date(),
  },
  failed: {
    ...base,
    mediaKind: "image",
    status: "failed",
    errorCode: "ERR4004",
    errorMessage: "Every provider failed.",
    completedAt: new Date(),
  },
  video: {
    ...base,
    mediaKind: "video",
    modelIdentifier: "darkroom/lumen-video",
    status: "processing",
    durationSeconds: 5,
    resolution: "720p",
    generateAudio: true,
    startedAt: new Date(),
  },
  removed: {
    ...base,
    mediaKind: "image",
    status: "succeeded",
    outputKeys: [`outputs/${randomUUID()}/0.png`],
    removedAt: new Date(),
    completedAt: new Date(),
  },
};

describe("readGenerationRecord", () => {
  for (const [shape, data] of Object.entries(shapes)) {
    it(`reads a ${shape} record exactly as the Prisma row makes it`, async () => {
      const { accountId } = await createTestAccount();
      const { id } = await db.generation.create({ data: { ...data, accountId }, select: { id: true } });
      const expected = toGenerationRecord(await findOwnGeneration(db, accountId, id), "pro");
      const read = await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
      expect(read).toEqual(expected);
      expect(JSON.stringify(read)).toBe(JSON.stringify(expected));
    });
  }

  it("answers ERR1006 for another account's generation, an unknown id and a malformed one", async () => {
    const owner = await createTestAccount();
    const stranger = await createTestAccount();
    const { id } = await db.generation.create({ data: { ...shapes.failed!, accountId: owner.accountId }, select: { id: true } });
    for (const [accountId, generationId] of [
      [stranger.accountId, id],
      [owner.accountId, randomUUID()],
      [owner.accountId, "not-a-uuid"],
    ] as const) {
      const error = await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: generationId, plan: "pro" }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("ERR1006");
    }
  });
});
