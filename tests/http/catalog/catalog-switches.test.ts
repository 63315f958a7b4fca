import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRecord } from "@/server/edge/contract/generations";
import type { LibraryModel, LibraryProvider } from "@/server/edge/contract/catalog";
import type { ModelsHealthData, ProvidersHealthData } from "@/server/edge/contract/health";
import { api, expectError, expectSuccess, type ApiReply } from "@/tests/support/http";
import { ownServer } from "@/tests/support/own-server";
import { until } from "@/tests/support/until";

// The operator's switches through the real API, on a server of its own (its own database, so the
// health figures are this suite's generations alone): CATALOG_DISABLED_MODELS turns the built-in
// video model off and CATALOG_DISABLED_PROVIDERS the `local` renderer, so the built-in image model
// runs on `local-backup` only. Prompt markers ([local-backup:fail]) make attempts fail.

const server = ownServer("catalog-switches", {
  env: { CATALOG_DISABLED_MODELS: "darkroom/lumen-video", CATALOG_DISABLED_PROVIDERS: "local" },
});

beforeAll(() => server.start(), 120_000);
afterAll(() => server.dispose(), 60_000);

const call = <Data>(path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiReply<Data>> =>
  api<Data>(path, { ...init, key: server.demoKey(), base: server.baseUrl() });

const createImage = (body: Record<string, unknown>) =>
  call<{ generation_id: string; generation_provider_order: string[] }>("/v1/generate/image/darkroom/lumen-image", { method: "POST", body });

async function finished(generationId: string): Promise<GenerationRecord> {
  let record: GenerationRecord | undefined;
  await until(async () => {
    record = expectSuccess(await call<GenerationRecord>(`/v1/content/${generationId}`));
    return ["succeeded", "failed", "canceled"].includes(record.generation_status);
  }, "the generation in a terminal state");
  return record!;
}

/** lumen-image generations this suite ran on local-backup, for the health figures. */
const ran = { succeeded: 0, failed: 0 };

describe("the library", () => {
  it("shows each model's model_status and a disabled provider, model_supported_provider unchanged", async () => {
    const { models } = expectSuccess(await call<{ models: LibraryModel[] }>("/v1/library/models"));
    const byId = Object.fromEntries(models.map((model) => [model.model_identifier, model]));
    expect(byId["darkroom/lumen-video"]).toMatchObject({ model_status: "disabled", model_supported_provider: ["local", "local-backup"] });
    expect(byId["darkroom/lumen-image"]).toMatchObject({ model_status: "active", model_supported_provider: ["local", "local-backup"] });
    const { providers } = expectSuccess(await call<{ providers: LibraryProvider[] }>("/v1/library/providers"));
    const status = Object.fromEntries(providers.map((provider) => [provider.provider_id, provider.provider_status]));
    expect(status).toMatchObject({ local: "disabled", "local-backup": "active", replicate: "not_configured" });
    // The remote models (none on local): active with an active provider, else not_configured.
    for (const model of models.filter((entry) => !entry.model_identifier.startsWith("darkroom/"))) {
      expect(model.model_status, model.model_identifier).toBe(
        model.model_supported_provider.some((provider) => status[provider] === "active") ? "active" : "not_configured",
      );
    }
  });
});

describe("routing", () => {
  it("leaves the disabled provider out of the chain, fastest or listed, and runs on the other", async () => {
    const fastest = expectSuccess(await createImage({ generation_prompt: "a lighthouse, local turned off" }), 202);
    expect(fastest.generation_provider_order).toEqual(["local-backup"]);
    const listed = expectSuccess(
      await createImage({ generation_prompt: "a pier, local turned off", generation_provider_order: "local,local-backup" }),
      202,
    );
    expect(listed.generation_provider_order).toEqual(["local-backup"]);
    for (const created of [fastest, listed]) {
      expect(await finished(created.generation_id)).toMatchObject({
        generation_status: "succeeded",
        generation_provider_used: "local-backup",
        generation_provider_order: ["local-backup"],
      });
      ran.succeeded += 1;
    }
  });

  it("refuses a provider order that lists only disabled providers (ERR1001)", async () => {
    const error = expectError(await createImage({ generation_prompt: "only local", generation_provider_order: "local" }), "ERR1001");
    expect(error.message).toContain("turned off on this deployment");
    expect(error.details).toMatchObject({
      fields: [{ field: "generation_provider_order", message: "local is turned off on this deployment" }],
    });
  });
});

describe("a disabled model", () => {
  it("is refused at create with ERR1012 in the envelope, saying it is turned off, before anything is reserved", async () => {
    const before = expectSuccess(await call<{ billing_credit_balance: number }>("/v1/user/billing"));
    const error = expectError(
      await call("/v1/generate/video/darkroom/lumen-video", {
        method: "POST",
        body: { generation_prompt: "waves", generation_duration: 2 },
      }),
      "ERR1012",
    );
    expect(error).toMatchObject({
      message: 'darkroom/lumen-video is turned off on this deployment by its operator (model_status "disabled" in GET /v1/library/models).',
      details: { model_identifier: "darkroom/lumen-video", model_status: "disabled" },
    });
    expect(expectSuccess(await call<{ billing_credit_balance: number }>("/v1/user/billing")).billing_credit_balance).toBe(
      before.billing_credit_balance,
    );
  });

  it("is refused at estimate with ERR1012", async () => {
    const error = expectError(await call("/v1/estimate/darkroom/lumen-video?duration=2"), "ERR1012");
    expect(error.details).toEqual({ model_identifier: "darkroom/lumen-video", model_status: "disabled" });
    // The model left on still estimates.
    expect(expectSuccess(await call<{ model_identifier: string }>("/v1/estimate/darkroom/lumen-image")).model_identifier).toBe(
      "darkroom/lumen-image",
    );
  });
});

describe("health per model per provider", () => {
  it("reports this model's attempts on each provider after real generations, some failed", async () => {
    const failing = expectSuccess(await createImage({ generation_prompt: "[local-backup:fail] a storm" }), 202);
    const another = expectSuccess(await createImage({ generation_prompt: "a calm sea" }), 202);
    expect(await finished(failing.generation_id)).toMatchObject({ generation_status: "failed" });
    ran.failed += 1;
    expect(await finished(another.generation_id)).toMatchObject({ generation_status: "succeeded" });
    ran.succeeded += 1;

    const health = expectSuccess(await call<ModelsHealthData>("/v1/health/inference/models"));
    const lumen = health.models.find((model) => model.model_identifier === "darkroom/lumen-image");
    const attempts = ran.succeeded + ran.failed;
    expect(lumen).toMatchObject({ model_status: "active" });
    expect(lumen?.providers["local-backup"]).toEqual({
      available: true,
      raw_model_id: "lumen-image",
      attempts,
      succeeded: ran.succeeded,
      failed: ran.failed,
      success_rate: Math.round((ran.succeeded / attempts) * 1000) / 1000,
      p50_latency_ms: expect.any(Number),
      last_error_code: "ERR4002",
      last_error_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The disabled provider: no attempts, not available; the disabled model listed as such.
    expect(lumen?.providers.local).toMatchObject({
      available: false,
      attempts: 0,
      success_rate: null,
      p50_latency_ms: null,
      last_error_code: null,
    });
    expect(health.models.find((model) => model.model_identifier === "darkroom/lumen-video")).toMatchObject({
      model_status: "disabled",
      providers: { local: { available: false } },
    });
    expect(health.healthy).toBe(true);

    const providers = expectSuccess(await call<ProvidersHealthData>("/v1/health/inference/providers"));
    expect(providers.providers.find((entry) => entry.provider === "local")).toMatchObject({
      status: "unknown",
      status_reason: "disabled: turned off on this deployment (CATALOG_DISABLED_PROVIDERS)",
      available: false,
      window: { total_attempts: 0 },
    });
    expect(providers.providers.find((entry) => entry.provider === "local-backup")?.window).toMatchObject({
      total_attempts: attempts,
      failures: ran.failed,
    });
  });
});
