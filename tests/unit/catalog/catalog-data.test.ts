import { describe, expect, it } from "vitest";
import { findModel, listModels, listProviders, modelsForProvider, providerIds, providerStatus } from "@/server/catalog/index";
import type { ModelDefinition } from "@/server/catalog/index";

const isMillis = (value: number) => Number.isSafeInteger(value) && value > 0;
/** A provider as the library lists it (GET /v1/library/providers reads listProviders). */
const providerNamed = (id: string) => listProviders().find((provider) => provider.id === id);

describe("catalog models", () => {
  const models = listModels();

  it("has unique identifiers of the form <vendor>/<model>", () => {
    const ids = models.map((model) => model.identifier);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/);
  });

  it.each(models.map((model) => [model.identifier, model] as [string, ModelDefinition]))("%s is self-consistent", (_id, model) => {
    expect(model.providers.length).toBeGreaterThan(0);
    expect(new Set(model.providers).size).toBe(model.providers.length);
    for (const provider of model.providers) {
      expect(providerNamed(provider), provider).toBeDefined();
      expect(model.providerModelIds[provider], provider).toMatch(/\S/);
    }
    // No provider id for a provider the model does not list.
    expect(Object.keys(model.providerModelIds).sort()).toEqual([...model.providers].sort());

    expect(new Set(model.ratios).size).toBe(model.ratios.length);
    for (const ratio of model.ratios) expect(ratio).toMatch(/^\d+:\d+$/);
    expect(new Set(model.formats).size).toBe(model.formats.length);
    expect(Number.isInteger(model.maxOutputs) && model.maxOutputs >= 1).toBe(true);
    expect(Number.isInteger(model.timeoutSeconds) && model.timeoutSeconds > 0).toBe(true);
    if (model.inputFiles) expect(Number.isInteger(model.inputFiles.max) && model.inputFiles.max >= 1).toBe(true);

    if (model.type === "image") {
      expect(isMillis(model.pricePerOutputMillis)).toBe(true);
      for (const format of model.formats) expect(["png", "jpg", "webp"]).toContain(format);
    } else {
      expect(model.formats).toEqual(["mp4"]);
      expect(model.maxOutputs).toBe(1);
      expect(model.durations).toContain(model.defaultDuration);
      for (const seconds of model.durations) expect(Number.isInteger(seconds) && seconds > 0).toBe(true);
      expect(model.resolutions.map((entry) => entry.id)).toContain(model.defaultResolution);
      for (const entry of model.resolutions) expect(isMillis(entry.perSecondMillis)).toBe(true);
      if (model.audioPerSecondMillis !== null) expect(isMillis(model.audioPerSecondMillis)).toBe(true);
    }
  });

  it("serves the built-in models on both local providers, so failover works offline", () => {
    for (const id of ["darkroom/lumen-image", "darkroom/lumen-video"]) {
      expect(findModel(id)?.providers).toEqual(["local", "local-backup"]);
    }
    expect(modelsForProvider("local").map((m) => m.identifier)).toEqual(modelsForProvider("local-backup").map((m) => m.identifier));
  });

  it("never fails a remote model over to a built-in renderer: only darkroom/* models list local or local-backup", () => {
    const builtIn = ["local", "local-backup"];
    const mixed = models.filter((model) => model.providers.some((provider) => builtIn.includes(provider)) && model.providers.some((provider) => !builtIn.includes(provider)));
    expect(mixed.map((model) => model.identifier)).toEqual([]);
    for (const model of models.filter((entry) => entry.providers.some((provider) => builtIn.includes(provider)))) expect(model.identifier).toMatch(/^darkroom\//);
  });

  it("finds models by identifier only", () => {
    expect(findModel("black-forest-labs/flux-schnell")?.providerModelIds).toEqual({
      replicate: "black-forest-labs/flux-schnell",
      fal: "fal-ai/flux/schnell",
    });
    expect(findModel("flux-schnell")).toBeUndefined();
    expect(findModel("")).toBeUndefined();
  });
});

describe("catalog providers", () => {
  it("lists the providers in order with complete definitions", () => {
    expect(listProviders().map((provider) => provider.id)).toEqual([...providerIds]);
    // The built-ins and the first three remote providers first; the catalog's (#44) appended after.
    expect(providerIds.slice(0, 5)).toEqual(["local", "local-backup", "replicate", "fal", "openai"]);
    expect(providerIds).toContain("bfl");
    expect(providerIds).toContain("minimax");
    expect(providerIds).toContain("runway");
    expect(providerIds).toContain("cloudflare");
    expect(providerIds).toContain("alibaba");
    expect(providerIds).toContain("byteplus");
    expect(providerIds).toContain("google");
    for (const provider of listProviders()) {
      expect(provider.name).toMatch(/\S/);
      expect(provider.description).toMatch(/\S/);
      expect(["webhook", "polling", "synchronous"]).toContain(provider.deliveryMethod);
      expect(Number.isInteger(provider.timeoutSeconds) && provider.timeoutSeconds > 0).toBe(true);
      expect(provider.capabilities.length).toBeGreaterThan(0);
      expect(modelsForProvider(provider.id).length, provider.id).toBeGreaterThan(0);
    }
  });

  it("serves every model type only on providers with a matching capability", () => {
    for (const model of listModels()) {
      for (const id of model.providers) {
        const capabilities = providerNamed(id)?.capabilities ?? [];
        expect(
          capabilities.some((capability) => capability.endsWith(`to-${model.type}`)),
          `${id} ${model.identifier}`,
        ).toBe(true);
      }
    }
  });

  it("names the credential env var of external providers and none for built-ins", () => {
    expect(providerNamed("replicate")?.credentialEnv).toBe("REPLICATE_API_TOKEN");
    expect(providerNamed("fal")?.credentialEnv).toBe("FAL_KEY");
    expect(providerNamed("openai")?.credentialEnv).toBe("OPENAI_API_KEY");
    expect(providerNamed("minimax")?.credentialEnv).toBe("MINIMAX_API_KEY");
    expect(providerNamed("cloudflare")).toMatchObject({ credentialEnv: "CLOUDFLARE_API_TOKEN", requiredEnv: ["CLOUDFLARE_ACCOUNT_ID"] });
    expect(providerNamed("alibaba")?.credentialEnv).toBe("DASHSCOPE_API_KEY");
    expect(providerNamed("byteplus")?.credentialEnv).toBe("ARK_API_KEY");
    expect(providerNamed("google")?.credentialEnv).toBe("GEMINI_API_KEY");
    expect(providerNamed("local")?.credentialEnv).toBeNull();
    expect(providerNamed("local-backup")?.credentialEnv).toBeNull();
    expect(providerNamed("nope")).toBeUndefined();
  });

  it("reports built-ins active always and external providers active only when configured", () => {
    const local = providerNamed("local");
    const replicate = providerNamed("replicate");
    if (!local || !replicate) throw new Error("catalog incomplete");
    expect(providerStatus(local, false)).toBe("active");
    expect(providerStatus(replicate, false)).toBe("not_configured");
    expect(providerStatus(replicate, true)).toBe("active");
  });
});
