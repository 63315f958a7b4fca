import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/accounts/account-scope";
import { db } from "@/server/db";
import { deleteApiKey } from "@/server/keys/delete-key";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { inTransaction } from "@/server/transaction";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";
import { expectRefusedWithinBound } from "@/tests/support/key-change";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";

// Each app instance caches keys by hash. A change made anywhere (here: this process, a third
// party on the same database, the way a dashboard on another node revokes) must reach every
// instance's cache at once: both app instances refuse the key within 1 s.

let second: SecondInstance;
const instances = () => [baseUrl(), second.baseUrl];

beforeAll(async () => {
  second = await startSecondInstance();
}, 120_000);

afterAll(async () => {
  await second?.stop();
});

async function statusOn(base: string, key: string) {
  const response = await fetch(`${base}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response;
}

/** Warms both instances' caches: several accepted requests each. */
async function warm(key: string) {
  for (const base of instances()) for (let index = 0; index < 3; index++) expect((await statusOn(base, key)).status).toBe(200);
}

/** Every instance refuses the key within 1 s of the change. */
async function refusedEverywhereWithin(key: string, changedAt: number) {
  for (const base of instances()) await expectRefusedWithinBound(key, base, changedAt);
}

describe("key cache across instances", () => {
  it("refuses a revoked key on every instance within 1 s", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await refusedEverywhereWithin(key, performance.now());
  });

  it("refuses a deleted key on every instance within 1 s", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    await inTransaction((tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await refusedEverywhereWithin(key, performance.now());
  });

  it("refuses a rotated key once its grace is cut short, and serves the new key", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, graceHours: 1, actor: "system" }));
    await warm(key);
    await db.apiKey.update({ where: { id: keyId }, data: { graceEndsAt: new Date(Date.now() - 1000) } });
    await refusedEverywhereWithin(key, performance.now());
    for (const base of instances()) expect((await statusOn(base, rotated.key)).status).toBe(200);
  });

  it("refuses a key whose expiry is moved into the past, and one that simply reaches its expiry", async () => {
    const { accountId, key, keyId } = await accountWithKey();
    await warm(key);
    await db.apiKey.update({ where: { id: keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await refusedEverywhereWithin(key, performance.now());

    // No change is written when a key reaches its expiry: each request checks the cached time.
    const expiring = await createTestKey(accountId, { expiresAt: new Date(Date.now() + 2_500) });
    await warm(expiring.key);
    const expiresAt = (await db.apiKey.findUniqueOrThrow({ where: { id: expiring.apikey_id } })).expiresAt!.getTime();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now())));
    for (const base of instances()) expect((await statusOn(base, expiring.key)).status).toBe(401);
  });

  it("applies an account's new plan (its rate limit) on every instance", async () => {
    const { accountId, key } = await accountWithKey({ plan: "free" });
    for (const base of instances()) expect((await statusOn(base, key)).headers.get("x-ratelimit-limit")).toBe("30");
    await db.account.update({ where: { id: accountId }, data: { plan: "pro" } });
    const changedAt = performance.now();
    for (const base of instances()) {
      while ((await statusOn(base, key)).headers.get("x-ratelimit-limit") !== "150") {
        expect(performance.now() - changedAt).toBeLessThan(1_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  });
});
