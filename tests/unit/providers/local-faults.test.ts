import { afterEach, describe, expect, it } from "vitest";
import { findModel, type ModelDefinition } from "@/server/catalog";
import { env, resetEnvCache } from "@/server/base/env";
import { localProviderFaultsEnvSchema } from "@/server/base/local-provider-faults";
import { localProviderFaults, planFaults, setLocalProviderFaults } from "@/server/providers/local/faults";

// LOCAL_PROVIDER_FAULTS: parsing, and the seeded per-(generation, attempt) decisions.

const model = findModel("darkroom/lumen-image") as ModelDefinition;
const job = (generationId: string, attempt = 1) => ({ generationId, attempt, model });

afterEach(() => {
  setLocalProviderFaults(null);
  delete process.env.LOCAL_PROVIDER_FAULTS;
  resetEnvCache();
});

describe("LOCAL_PROVIDER_FAULTS parsing", () => {
  it("reads the documented example", () => {
    const parsed = localProviderFaultsEnvSchema.parse(
      '{"local": {"failRate": 0.3, "latencyMs": [200, 800], "stallRate": 0.05}, "local-backup": {"failRate": 1}}',
    );
    expect(parsed.local).toMatchObject({ failRate: 0.3, latencyMs: [200, 800], stallRate: 0.05, rejectRate: 0, unavailable: false });
    expect(parsed["local-backup"]).toMatchObject({ failRate: 1, latencyMs: 0 });
  });

  it.each([
    ["not JSON", "{local: 1}", /not valid JSON/],
    ["a rate above 1", '{"local": {"failRate": 2}}', /failRate/],
    ["an unknown provider", '{"replicate": {"failRate": 1}}', /replicate/],
    ["an unknown setting", '{"local": {"explode": true}}', /explode/],
    ["a reversed latency range", '{"local": {"latencyMs": [800, 200]}}', /min <= max/],
  ])("fails startup clearly on %s", (_, value, message) => {
    process.env.LOCAL_PROVIDER_FAULTS = value;
    resetEnvCache();
    expect(() => env()).toThrow(/Invalid configuration: LOCAL_PROVIDER_FAULTS/);
    expect(() => env()).toThrow(message);
  });

  it("is read from the env lazily, and a programmatic setting overrides it until cleared", () => {
    expect(localProviderFaults()).toEqual({});
    process.env.LOCAL_PROVIDER_FAULTS = '{"local": {"unavailable": true}}';
    resetEnvCache();
    expect(planFaults("local", job("g1")).outcome).toBe("unavailable");
    setLocalProviderFaults({ local: { rejectRate: 1 } });
    expect(planFaults("local", job("g1")).outcome).toBe("reject");
    setLocalProviderFaults(null);
    expect(planFaults("local", job("g1")).outcome).toBe("unavailable");
  });

  it("validates programmatic settings too", () => {
    expect(() => setLocalProviderFaults({ local: { failRate: -1 } })).toThrow();
  });
});

describe("planFaults", () => {
  it("renders with no latency when nothing is configured", () => {
    expect(planFaults("local", job("g1"))).toEqual({ outcome: "render", latencyMs: 0, stallMs: model.timeoutSeconds * 1000 });
  });

  it.each([
    [{ failRate: 1 }, "fail"],
    [{ rejectRate: 1 }, "reject"],
    [{ stallRate: 1 }, "stall"],
    [{ unavailable: true }, "unavailable"],
    [{ failRate: 0, rejectRate: 0, stallRate: 0 }, "render"],
  ] as const)("%j always gives %s", (faults, outcome) => {
    setLocalProviderFaults({ local: faults });
    for (let i = 0; i < 50; i++) expect(planFaults("local", job(`generation-${i}`, 1 + (i % 3))).outcome).toBe(outcome);
  });

  it("applies to the configured provider only", () => {
    setLocalProviderFaults({ "local-backup": { failRate: 1 } });
    expect(planFaults("local", job("g1")).outcome).toBe("render");
    expect(planFaults("local-backup", job("g1")).outcome).toBe("fail");
  });

  it("decides the same for the same (generation, attempt), and partial rates hit about their share", () => {
    setLocalProviderFaults({ local: { failRate: 0.3, latencyMs: [200, 800] } });
    expect(planFaults("local", job("g-same", 2))).toEqual(planFaults("local", job("g-same", 2)));
    const plans = Array.from({ length: 2_000 }, (_, i) => planFaults("local", job(`generation-${i}`)));
    const failed = plans.filter((plan) => plan.outcome === "fail").length;
    expect(failed).toBeGreaterThan(480);
    expect(failed).toBeLessThan(720);
    const latencies = plans.map((plan) => plan.latencyMs);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(800);
    expect(new Set(latencies).size).toBeGreaterThan(100);
  });

  it("uses stallMs when given, the model's timeout otherwise", () => {
    setLocalProviderFaults({ local: { stallRate: 1, stallMs: 50 }, "local-backup": { stallRate: 1 } });
    expect(planFaults("local", job("g1")).stallMs).toBe(50);
    expect(planFaults("local-backup", job("g1")).stallMs).toBe(model.timeoutSeconds * 1000);
  });
});
