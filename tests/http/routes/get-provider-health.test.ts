import { describe, expect, it } from "vitest";
import { getProviderHealth } from "@/server/edge/http/operations/health";
import { accountWithKey } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

// GET /v1/health/inference/providers (getProviderHealth), and its legacy forms.

const HEALTH_STATUSES = ["healthy", "recovering", "degraded", "unknown"];

describe("200", () => {
  it("reports providers with their window", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(getProviderHealth, { key }));
    expect(data.service).toBe("providers");
    expect(data.providers_total).toBe(data.providers.length);
    const local = data.providers.find((provider) => provider.provider === "local");
    expect(typeof local?.status).toBe("string");
    expect(typeof local?.failure_rate).toBe("number");
    expect(Object.keys(local?.window ?? {}).sort()).toEqual(["duration_seconds", "failures", "successes", "total_attempts"]);
  });

  it("reports each provider as healthy, recovering, degraded or unknown; unconfigured ones unknown with the reason", async () => {
    const { key } = await accountWithKey();
    const health = expectSuccess(await callOperation(getProviderHealth, { key }));
    for (const entry of health.providers) {
      expect(HEALTH_STATUSES).toContain(entry.status);
      expect(typeof entry.status_reason).toBe("string");
    }
    const fal = health.providers.find((entry) => entry.provider === "fal");
    expect(fal).toMatchObject({ status: "unknown", status_reason: "not configured: FAL_KEY is not set", available: false });
  });

  it("serves /v1/health/providers like /v1/health/inference/providers", async () => {
    const { key } = await accountWithKey();
    const legacy = expectSuccess(await callOperation(getProviderHealth, { key, path: "/v1/health/providers" }));
    expect(legacy.service).toBe("providers");
    expect(Object.keys(legacy).sort()).toEqual([
      "healthy",
      "providers",
      "providers_total",
      "service",
      "service_paused",
      "service_paused_reason",
    ]);
  });

  it("serves /api/v1/health/providers through both aliases", async () => {
    const { key } = await accountWithKey();
    expect(expectSuccess(await callOperation(getProviderHealth, { key, path: "/api/v1/health/providers" })).service).toBe("providers");
  });
});
