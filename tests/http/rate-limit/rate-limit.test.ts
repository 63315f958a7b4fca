import { describe, expect, it } from "vitest";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { awayFromWindowEdge, createTestAccount, createTestKey } from "@/tests/support/fixtures";

// The general bucket at the exact plan limit, over HTTP, with the server's counter backend
// (Redis in CI, PostgreSQL on a fresh machine). Both backends are also tested directly in
// tests/integration/rate-limit/rate-limit.test.ts, generation bucket included.

describe("per-account rate limit over HTTP (ERR1005)", () => {
  it("lets the Free plan make exactly 30 general requests a minute, shared by all keys", async () => {
    const account = await createTestAccount({ plan: "free" });
    const first = await createTestKey(account.accountId, { name: "first" });
    const second = await createTestKey(account.accountId, { name: "second" });
    await awayFromWindowEdge();

    for (let index = 1; index <= 30; index += 1) {
      const reply = await api("/v1/status", { key: index % 2 ? first.key : second.key });
      expectSuccess(reply);
      expect(reply.headers.get("x-ratelimit-limit")).toBe("30");
      expect(reply.headers.get("x-ratelimit-remaining")).toBe(String(30 - index));
      expect(Number(reply.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
      expect(reply.headers.get("retry-after")).toBeNull();
    }

    const refused = await api("/v1/library/models", { key: second.key });
    const error = expectError(refused, "ERR1005");
    expect(error.details).toMatchObject({ limit: 30, bucket: "general" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("30");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get("x-ratelimit-reset")) - Date.now() / 1000).toBeLessThanOrEqual(retryAfter + 1);
  });

  it("keeps accounts apart", async () => {
    const busy = await createTestAccount({ plan: "free" });
    const quiet = await createTestAccount({ plan: "free" });
    const busyKey = await createTestKey(busy.accountId);
    const quietKey = await createTestKey(quiet.accountId);
    await awayFromWindowEdge();
    await Promise.all(Array.from({ length: 31 }, () => api("/v1/status", { key: busyKey.key })));
    expectError(await api("/v1/status", { key: busyKey.key }), "ERR1005");
    const reply = await api("/v1/status", { key: quietKey.key });
    expectSuccess(reply);
    expect(reply.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  it("counts concurrent requests exactly: 40 at once on Free gives 30 successes", async () => {
    const account = await createTestAccount({ plan: "free" });
    const key = await createTestKey(account.accountId);
    await awayFromWindowEdge();
    const replies = await Promise.all(Array.from({ length: 40 }, () => api("/v1/user/account", { key: key.key })));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(30);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(10);
  });

  it("sends the headers on scope errors too, without counting them", async () => {
    const account = await createTestAccount({ plan: "pro" });
    const key = await createTestKey(account.accountId, { preset: "monitor" });
    await awayFromWindowEdge();
    const refused = await api("/v1/status", { key: key.key });
    expectError(refused, "ERR1003");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("150");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("150");
    const counted = await api("/v1/library/models", { key: key.key });
    expect(counted.headers.get("x-ratelimit-remaining")).toBe("149");
  });
});
