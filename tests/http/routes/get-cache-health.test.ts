import { describe, expect, it } from "vitest";
import { getCacheHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

// GET /v1/health/cache (getCacheHealth): the store of the rate-limit and routing counters.

describe("200", () => {
  it("probes the cache for real, answering as service redis with the real backend", async () => {
    const { key } = await accountWithKey();
    const cache = expectSuccess(await callOperation(getCacheHealth, { key }));
    expect(cache).toMatchObject({ service: "redis", healthy: true, backend: process.env.REDIS_URL ? "redis" : "postgres" });
  });
});
