import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sqlPool } from "@/server/base/db";
import { accountScope } from "@/server/base/account-scope";
import { ApiError } from "@/server/base/error-table";
import type { Prisma } from "@/server/base/generated/prisma/client";
import { readGenerationRecord } from "@/server/generations/records/find-public-record";
import { recordCacheReady, recordCacheStats, stopRecordCache } from "@/server/generations/records/public-record-cache";
import { ensureAuthSecret } from "@/server/start/secrets";
import { until } from "@/tests/support/until";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedFinishedImage } from "@/tests/support/generations";

// The record cache of this process (GET /v1/content/{id}): finished generations are served from
// memory after the first read, a generation in flight never is, and any change to a finished row
// (removal, purge) reaches the cache by its trigger's notice; while the listener is down nothing
// is served from memory.

beforeAll(() => ensureAuthSecret());
afterAll(() => stopRecordCache());

async function seed(data: Partial<Prisma.GenerationUncheckedCreateInput> = {}) {
  const { accountId } = await createTestAccount();
  const { id } = await seedFinishedImage(accountId, data);
  return { accountId, id };
}

const errorCodeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
  );

describe("record cache", () => {
  it("serves a finished generation from memory after the first read, the same record", async () => {
    expect(await recordCacheReady()).toBe(true);
    const { accountId, id } = await seed();
    const first = await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
    const before = recordCacheStats();
    expect(await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" })).toEqual(first);
    expect(recordCacheStats().hits).toBe(before.hits + 1);
  });

  it("never keeps a generation in flight: its next read sees the change", async () => {
    expect(await recordCacheReady()).toBe(true);
    const { accountId, id } = await seed({ status: "processing", outputKeys: [], completedAt: null, providerUsed: null });
    expect((await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" })).generation_status).toBe(
      "processing",
    );
    await db.generation.update({
      where: { id },
      data: { status: "succeeded", outputKeys: [`outputs/${randomUUID()}/0.png`], completedAt: new Date(), providerUsed: "local" },
    });
    const record = await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
    expect(record.generation_status).toBe("succeeded");
    expect(record.generation_output_file).toHaveLength(1);
  });

  it("answers ERR1006 to another account even for a cached generation", async () => {
    expect(await recordCacheReady()).toBe(true);
    const { accountId, id } = await seed();
    await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
    const stranger = await createTestAccount();
    expect(await errorCodeOf(readGenerationRecord(sqlPool(), accountScope(stranger.accountId), { generationId: id, plan: "pro" }))).toBe(
      "ERR1006",
    );
  });

  // The cache has no expiry: only the commit's notice can drop an entry, so seeing the change at all proves the notice came.
  it("drops a finished generation another transaction removed or purged, on the commit's notice", async () => {
    expect(await recordCacheReady()).toBe(true);
    const removed = await seed();
    await readGenerationRecord(sqlPool(), accountScope(removed.accountId), { generationId: removed.id, plan: "pro" });
    await sqlPool().query("UPDATE generation SET removed_at = now() WHERE id = $1", [removed.id]);
    await until(
      async () =>
        (await readGenerationRecord(sqlPool(), accountScope(removed.accountId), { generationId: removed.id, plan: "pro" }))
          .generation_removed === "true",
      "the removal seen through the cache's notice",
    );
    expect(
      (await readGenerationRecord(sqlPool(), accountScope(removed.accountId), { generationId: removed.id, plan: "pro" }))
        .generation_output_file,
    ).toEqual([]);

    const purged = await seed();
    await readGenerationRecord(sqlPool(), accountScope(purged.accountId), { generationId: purged.id, plan: "pro" });
    await sqlPool().query("DELETE FROM generation WHERE id = $1", [purged.id]);
    await until(
      async () =>
        (await errorCodeOf(readGenerationRecord(sqlPool(), accountScope(purged.accountId), { generationId: purged.id, plan: "pro" }))) ===
        "ERR1006",
      "the purge seen through the cache's notice",
    );
  });

  it("empties itself when the listener's connection is lost, reads the database meanwhile, and listens again", async () => {
    expect(await recordCacheReady()).toBe(true);
    const { accountId, id } = await seed();
    await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
    expect(recordCacheStats().size).toBeGreaterThan(0);

    const pid = recordCacheStats().backendPid;
    expect(pid).toBeTypeOf("number");
    await sqlPool().query("SELECT pg_terminate_backend($1)", [pid]);
    await until(() => !recordCacheStats().listening || recordCacheStats().backendPid !== pid, "the record cache's listener gone");
    // While it is down (or just back), nothing stale is served: a removal made now is seen at once.
    await sqlPool().query("UPDATE generation SET removed_at = now() WHERE id = $1", [id]);
    expect((await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" })).generation_removed).toBe(
      "true",
    );

    await until(
      () => recordCacheStats().listening && recordCacheStats().backendPid !== pid,
      "the record cache listening on a new connection",
    );
    await sqlPool().query("UPDATE generation SET removed_at = NULL WHERE id = $1", [id]);
    await until(
      async () =>
        (await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" })).generation_removed ===
        undefined,
      "the restored generation read as not removed",
    );
    // Listening again, it serves from memory again (a read that raced the notice is not kept, so the hit may take one more read).
    await until(async () => {
      const { hits } = recordCacheStats();
      await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" });
      return recordCacheStats().hits === hits + 1;
    }, "a read served from memory again");
    await sqlPool().query("UPDATE generation SET removed_at = now() WHERE id = $1", [id]);
    await until(
      async () =>
        (await readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: id, plan: "pro" })).generation_removed === "true",
      "the removal seen through the cache's notice",
    );
  });
});
