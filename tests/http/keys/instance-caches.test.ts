import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { db, sqlPool } from "@/server/base/db";
import { deleteApiKey } from "@/server/keys/delete-key";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { seedFinishedImage } from "@/tests/support/generations";
import { baseUrl } from "@/tests/support/http";
import { refusedOnceChangeArrives } from "@/tests/support/key-change";
import { startSecondInstance, type SecondInstance } from "@/tests/support/second-instance";
import { until } from "@/tests/support/until";

// Each app instance caches keys by hash, and finished generations by id. A change made anywhere
// (here: this process, a third party on the same database, the way a dashboard on another node
// revokes) must reach every instance's caches at once: both app instances refuse the key, or
// answer the changed record. Neither cache has an expiry, so an instance that answers the change
// at all got the change's notice.

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

/** Every instance refuses the key once the change's notice reached it. */
async function refusedEverywhere(key: string) {
  for (const base of instances()) expect((await refusedOnceChangeArrives(key, base)).status).toBe(401);
}

describe("key cache across instances", () => {
  it("refuses a revoked key on every instance", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    await inTransaction((tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await refusedEverywhere(key);
  });

  it("refuses a deleted key on every instance", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    await inTransaction((tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await refusedEverywhere(key);
  });

  it("refuses a rotated key once its grace is cut short, and serves the new key", async () => {
    const { key, keyId } = await accountWithKey();
    await warm(key);
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, graceHours: 1, actor: "system" }));
    await warm(key);
    await db.apiKey.update({ where: { id: keyId }, data: { graceEndsAt: new Date(Date.now() - 1000) } });
    await refusedEverywhere(key);
    for (const base of instances()) expect((await statusOn(base, rotated.key)).status).toBe(200);
  });

  it("refuses a key whose expiry is moved into the past, and one that simply reaches its expiry", async () => {
    const { accountId, key, keyId } = await accountWithKey();
    await warm(key);
    await db.apiKey.update({ where: { id: keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await refusedEverywhere(key);

    // No change is written when a key reaches its expiry: each request checks the cached time.
    const expiring = await createTestKey(accountId, { expiresAt: new Date(Date.now() + 2_500) });
    await warm(expiring.key);
    for (const base of instances())
      await until(async () => (await statusOn(base, expiring.key)).status === 401, `${base} refusing the key past its expiry`, {
        everyMs: 250,
      });
  });

  it("applies an account's new plan (its rate limit) on every instance", async () => {
    const { accountId, key } = await accountWithKey({ plan: "free" });
    for (const base of instances()) expect((await statusOn(base, key)).headers.get("x-ratelimit-limit")).toBe("30");
    await db.account.update({ where: { id: accountId }, data: { plan: "pro" } });
    for (const base of instances()) {
      await until(
        async () => (await statusOn(base, key)).headers.get("x-ratelimit-limit") === "150",
        `${base} applying the Pro plan's limit`,
      );
    }
  });
});

describe("record cache across instances", () => {
  async function contentOn(base: string, key: string, generationId: string) {
    const response = await fetch(`${base}/v1/content/${generationId}`, { headers: { authorization: `Bearer ${key}` } });
    return {
      status: response.status,
      body: (await response.json()) as {
        data?: { generation_removed?: string; generation_output_file?: string[] };
        error?: { code: string };
      },
    };
  }

  /** Every instance answers `expected` for the generation once the change's notice reached it. */
  async function everywhere(key: string, generationId: string, expected: (reply: Awaited<ReturnType<typeof contentOn>>) => boolean) {
    for (const base of instances())
      await until(async () => expected(await contentOn(base, key, generationId)), `${base} answering the changed record`);
  }

  it("answers a removed, then a purged generation as such on every instance", async () => {
    const { accountId, key } = await accountWithKey();
    const { id } = await seedFinishedImage(accountId);
    for (const base of instances()) {
      for (let index = 0; index < 3; index += 1) {
        const reply = await contentOn(base, key, id);
        expect(reply.status).toBe(200);
        expect(reply.body.data?.generation_output_file).toHaveLength(1);
      }
    }
    await sqlPool().query("UPDATE generation SET removed_at = now() WHERE id = $1", [id]);
    await everywhere(key, id, (reply) => reply.status === 200 && reply.body.data?.generation_removed === "true");
    await sqlPool().query("DELETE FROM generation WHERE id = $1", [id]);
    await everywhere(key, id, (reply) => reply.status === 404 && reply.body.error?.code === "ERR1006");
  });
});
