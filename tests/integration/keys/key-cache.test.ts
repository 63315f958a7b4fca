import { afterAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { db, sqlPool } from "@/server/base/db";
import { hashApiKey } from "@/server/keys/generate-key";
import { keyCacheReady, keyCacheStats, lookupKeyByHash, stopKeyCache } from "@/server/keys/key-cache";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";

// The key cache of this process: hits while the listener is connected, invalidation by the
// triggers' notices, an empty cache and database reads while the listener is down, and recovery.

afterAll(() => stopKeyCache());

describe("key cache", () => {
  it("serves a key from memory after the first lookup", async () => {
    expect(await keyCacheReady()).toBe(true);
    const { key, keyId } = await accountWithKey();
    const hash = hashApiKey(key);
    expect((await lookupKeyByHash(hash))?.id).toBe(keyId);
    const before = keyCacheStats();
    expect((await lookupKeyByHash(hash))?.id).toBe(keyId);
    expect(keyCacheStats().hits).toBe(before.hits + 1);
    expect(keyCacheStats().misses).toBe(before.misses);
  });

  // The cache has no expiry: only the commit's notice can drop an entry, so seeing the revoke at all proves the notice came.
  it("drops a key another transaction revoked, on the commit's notice", async () => {
    expect(await keyCacheReady()).toBe(true);
    const { key, keyId } = await accountWithKey();
    const hash = hashApiKey(key);
    await lookupKeyByHash(hash);
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await until(async () => (await lookupKeyByHash(hash))?.status === "revoked", "the revoke seen through the cache's notice");
  });

  it("sends nothing for a rolled-back change, and ignores last_used_at", async () => {
    expect(await keyCacheReady()).toBe(true);
    const { key, keyId } = await accountWithKey();
    const hash = hashApiKey(key);
    await lookupKeyByHash(hash);
    await db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date() } });
    await expect(
      db.$transaction(async (tx) => {
        await tx.apiKey.update({ where: { id: keyId }, data: { status: "revoked" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // Notices arrive in commit order: once a later commit's notice is in, a rolled-back one would have been too.
    const later = await accountWithKey();
    await lookupKeyByHash(hashApiKey(later.key));
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId: later.keyId, actor: "system" }));
    await until(async () => (await lookupKeyByHash(hashApiKey(later.key)))?.status === "revoked", "a later commit's notice received");
    const before = keyCacheStats();
    expect((await lookupKeyByHash(hash))?.status).toBe("active");
    expect(keyCacheStats().hits).toBe(before.hits + 1);
  });

  it("empties itself when the listener's connection is lost, reads the database meanwhile, and listens again", async () => {
    expect(await keyCacheReady()).toBe(true);
    const { key, keyId } = await accountWithKey();
    const hash = hashApiKey(key);
    await lookupKeyByHash(hash);
    expect(keyCacheStats().size).toBeGreaterThan(0);

    const pid = keyCacheStats().backendPid;
    expect(pid).toBeTypeOf("number");
    await sqlPool().query("SELECT pg_terminate_backend($1)", [pid]);
    await until(() => !keyCacheStats().listening || keyCacheStats().backendPid !== pid, "the key cache's listener gone");
    // While it is down (or just back), nothing stale is served: a revoke made now is seen at once.
    await db.apiKey.update({ where: { id: keyId }, data: { status: "revoked", revokedAt: new Date() } });
    expect((await lookupKeyByHash(hash))?.status).toBe("revoked");

    await until(() => keyCacheStats().listening && keyCacheStats().backendPid !== pid, "the key cache listening on a new connection");
    await db.apiKey.update({ where: { id: keyId }, data: { status: "active", revokedAt: null } });
    await until(async () => (await lookupKeyByHash(hash))?.status === "active", "the key read as active again");
    await lookupKeyByHash(hash);
    await db.apiKey.update({ where: { id: keyId }, data: { status: "revoked", revokedAt: new Date() } });
    await until(async () => (await lookupKeyByHash(hash))?.status === "revoked", "the revoke seen through the cache's notice");
  });
});
