import { describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { getStatus } from "@/server/edge/http/operations/account";
import { getEstimate } from "@/server/edge/http/operations/catalog";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { setAccountSpendLimit } from "@/server/spend/set-account-spend-limit";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey, createTestKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { api, callOperation, expectError, expectSuccess, ISO_DATE_TIME } from "@/tests/support/http";

// Spend limits through /v1: ERR1014 from the create routes (402, not retryable, nothing
// reserved), the key's budget on GET /v1/status and the room left on GET /v1/estimate.

const IMAGE_PRICE = 2; // darkroom/lumen-image, millicredits per output

async function limitKey(keyId: string, generations: number, period: "day" | "week" | "month" | "total" = "day") {
  await inTransaction((tx) => setKeySpendLimit(tx, OPERATOR, { keyId, limitMillis: generations * IMAGE_PRICE, period, actor: "system" }));
}

describe("create", () => {
  it("concurrent creates past a key's limit: exactly the paid-for ones accepted, the rest ERR1014 (402, not retryable)", async () => {
    const { key, keyId } = await accountWithKey();
    await limitKey(keyId, 3);
    const replies = await Promise.all(Array.from({ length: 8 }, (_, index) => createImage(key, { generation_prompt: `capped ${index}` })));
    const accepted = replies.filter((reply) => reply.status === 202);
    expect(accepted).toHaveLength(3);
    for (const reply of replies.filter((candidate) => candidate.status !== 202)) {
      expect(reply.status).toBe(402);
      const error = expectError(reply, "ERR1014");
      expect(error).toMatchObject({ type: "spend_limit_exceeded", retryable: false });
      expect(error.details).toEqual({
        scope: "apikey",
        limit: 0.006,
        used: 0.006,
        requested: 0.002,
        resets_at: expect.stringMatching(ISO_DATE_TIME),
      });
    }
    for (const reply of accepted) await waitForStatus(key, (reply.body as { data: { generation_id: string } }).data.generation_id);
    // Charged, the generations keep counting: still refused.
    expectError(await createImage(key, { generation_prompt: "after" }), "ERR1014");
  });

  it("the account's monthly limit refuses with scope account over all keys", async () => {
    const { key, accountId } = await accountWithKey();
    const other = await createTestKey(accountId, { name: "second" });
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis: 2 * IMAGE_PRICE, actor: "system" }));
    expect((await createImage(key, { generation_prompt: "one" })).status).toBe(202);
    expect((await createImage(other.key, { generation_prompt: "two" })).status).toBe(202);
    const error = expectError(await createImage(other.key, { generation_prompt: "three" }), "ERR1014");
    expect(error.details).toMatchObject({ scope: "account", limit: 0.004, used: 0.004, requested: 0.002 });
    expect(new Date(error.details.resets_at as string).getUTCDate()).toBe(1);
  });

  it("a rotated key's successor spends the same budget", async () => {
    const { key, keyId } = await accountWithKey();
    await limitKey(keyId, 2, "total");
    expect((await createImage(key, { generation_prompt: "old key" })).status).toBe(202);
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    expect((await createImage(rotated.key, { generation_prompt: "new key" })).status).toBe(202);
    expect(expectError(await createImage(rotated.key, { generation_prompt: "over" }), "ERR1014").details).toMatchObject({
      scope: "apikey",
      resets_at: null,
    });
    expect(expectSuccess(await callOperation(getStatus, { key: rotated.key }))).toMatchObject({
      apikey_spend_limit: 0.004,
      apikey_spend_period: "total",
      apikey_spend_used: 0.004,
    });
  });
});

describe("GET /v1/status", () => {
  it("shows the key's limit, period, spend and reset", async () => {
    const { key, keyId } = await accountWithKey();
    await limitKey(keyId, 10, "week");
    expect((await createImage(key, { generation_prompt: "counted" })).status).toBe(202);
    const data = expectSuccess(await callOperation(getStatus, { key }));
    expect(data).toMatchObject({ apikey_spend_limit: 0.02, apikey_spend_period: "week", apikey_spend_used: 0.002 });
    const resets = new Date(data.apikey_spend_resets_at!);
    expect(resets.getUTCDay()).toBe(1);
    expect(resets.toISOString()).toMatch(/T00:00:00\.000Z$/);
  });
});

describe("GET /v1/estimate", () => {
  const estimate = (key: string, count: number) =>
    callOperation(getEstimate, { key, params: { model_identifier: "darkroom/lumen-image" }, query: { count } });

  it("the room left is the smaller of the key's and the account's; affordability follows it", async () => {
    const { key, keyId, accountId } = await accountWithKey();
    await limitKey(keyId, 5);
    expect((await createImage(key, { generation_prompt: "spent" })).status).toBe(202);
    expect(expectSuccess(await estimate(key, 4))).toMatchObject({
      apikey_spend_remaining: 0.008,
      credit_balance_can_afford: true,
      credit_balance_max_affordable: 4,
    });
    expect(expectSuccess(await estimate(key, 5))).toMatchObject({
      apikey_spend_remaining: 0.008,
      credit_balance_can_afford: false,
      credit_balance_max_affordable: 4,
    });
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis: 3 * IMAGE_PRICE, actor: "system" }));
    expect(expectSuccess(await estimate(key, 1))).toMatchObject({
      apikey_spend_remaining: 0.004,
      credit_balance_can_afford: true,
      credit_balance_max_affordable: 2,
    });
  });
});

describe("OpenAPI", () => {
  it("lists ERR1014 on the create routes and the new fields", async () => {
    const document = (await api("/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(JSON.stringify(document.paths["/v1/generate/image/{model_identifier}"]?.post?.responses)).toContain("ERR1014");
    expect(Object.keys(document.components.schemas.KeyStatus?.properties ?? {})).toEqual(
      expect.arrayContaining(["apikey_spend_limit", "apikey_spend_period", "apikey_spend_used", "apikey_spend_resets_at"]),
    );
    expect(Object.keys(document.components.schemas.Estimate?.properties ?? {})).toContain("apikey_spend_remaining");
  });
});
