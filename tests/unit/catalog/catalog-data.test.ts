import { describe, expect, it } from "vitest";
import { findModel, listModels, listProviders, modelsForProvider, providerIds, providerStatus } from "@/server/catalog/index";
import type { ModelDefinition } from "@/server/catalog/index";
import { CatalogDataError, loadModels } from "@/server/catalog/load-models";
import { providerFitProblems } from "@/server/catalog/provider-fit";

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
    const mixed = models.filter(
      (model) =>
        model.providers.some((provider) => builtIn.includes(provider)) && model.providers.some((provider) => !builtIn.includes(provider)),
    );
    expect(mixed.map((model) => model.identifier)).toEqual([]);
    for (const model of models.filter((entry) => entry.providers.some((provider) => builtIn.includes(provider))))
      expect(model.identifier).toMatch(/^darkroom\//);
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

describe("catalog data fits every provider it names", () => {
  it.each(listModels().map((model) => [model.identifier, model] as [string, ModelDefinition]))("%s", (_id, model) => {
    expect(providerFitProblems(model)).toEqual([]);
  });

  it("names an option a provider's mapping cannot carry, a missing table value and a missing capability", () => {
    const schnell = findModel("black-forest-labs/flux-schnell");
    if (!schnell || schnell.type !== "image") throw new Error("catalog incomplete");
    // webp is not in fal's output_format table; 21:9 not in its image_size table.
    expect(providerFitProblems({ ...schnell, formats: ["png", "webp"], ratios: ["1:1", "21:9"] })).toEqual([
      "fal: image_size has no value for ratio 21:9",
      "fal: output_format has no value for output_format webp",
    ]);
    // A mapping that drops the output count while the model offers four.
    const [first] = loadModels([
      {
        identifier: "test/two-outputs",
        name: "Test",
        type: "image",
        providers: [{ id: "replicate", model: "test/two-outputs", input: { prompt: "prompt", aspect_ratio: "ratio" } }],
        ratios: ["1:1", "16:9"],
        formats: ["png"],
        max_outputs: 4,
        input_files: { max: 2, required: false },
        timeout_seconds: 60,
        price: { per: "image", usd: "0.01" },
      },
    ]);
    expect(providerFitProblems(first!)).toEqual([
      "replicate: its input never carries the output count (output_count)",
      "replicate: its input never carries every input file (input_files)",
      "replicate: its input never carries the input file (input_file or input_files)",
    ]);
    // Cloudflare makes pictures only from text.
    const lucid = findModel("leonardo/lucid-origin");
    if (!lucid) throw new Error("catalog incomplete");
    expect(providerFitProblems({ ...lucid, workflows: ["text-to-image", "image-edit"] })).toEqual([
      "cloudflare: offers no image-to-image (workflow image-edit)",
    ]);
  });
});

describe("catalog data is validated at load", () => {
  it("names every problem of a bad model and loads none of it", () => {
    const bad = () =>
      loadModels([
        {
          identifier: "Test/Bad",
          name: "",
          type: "video",
          providers: [{ id: "fal", model: "x", model_by: { from: "resolution", map: { "720p": "x" } } }],
          ratios: ["16:9"],
          timeout_seconds: 60,
          durations: [5],
          resolutions: ["720p", "1080p"],
          price: { per: "second", usd: { "720p": "0.1" } },
        },
        {
          identifier: "test/video",
          name: "Video",
          type: "video",
          providers: [{ id: "fal", model: "x", model_by: { from: "resolution", map: { "720p": "x" } } }],
          ratios: ["16:9"],
          timeout_seconds: 60,
          durations: [5],
          default_duration: 10,
          resolutions: ["720p", "1080p"],
          price: { per: "second", usd: { "720p": "0.1", "4k": "1" } },
        },
      ]);
    expect(bad).toThrow(CatalogDataError);
    try {
      bad();
    } catch (error) {
      expect((error as CatalogDataError).problems).toEqual([
        "Test/Bad: identifier: an identifier is <vendor>/<model>, lower case",
        "Test/Bad: name: Too small: expected string to have >=1 characters",
        "test/video: default_duration 10 is not one of the durations",
        "test/video: price: no per-second price for 1080p",
        "test/video: price: 4k is not a resolution of this model",
        "test/video: providers.fal.model_by: no endpoint for resolution 1080p",
      ]);
    }
  });

  it("derives workflows from the options and prices pictures by megapixel per ratio", () => {
    const [model] = loadModels([
      {
        identifier: "test/megapixel",
        name: "Megapixel",
        type: "image",
        providers: [{ id: "fal", model: "fal-ai/test", cost: { per: "megapixel", usd: "0.0025", default_megapixels: 1 } }],
        ratios: ["1:1", "16:9"],
        formats: ["png"],
        max_outputs: 1,
        input_files: { max: 1, required: false },
        timeout_seconds: 60,
        price: { per: "megapixel", usd: "0.025", default_megapixels: 1.05, megapixels: { "16:9": 2.1 } },
      },
    ]);
    if (!model || model.type !== "image") throw new Error("not loaded");
    expect(model.workflows).toEqual(["text-to-image", "image-edit"]);
    expect(model.priceByRatioMillis).toEqual({ "1:1": 27, "16:9": 53 });
    expect(model.pricePerOutputMillis).toBe(27);
    expect(model.providerCosts.fal).toEqual({ unit: "megapixel", perMegapixel: 2500, megapixelsByRatio: { "1:1": 1, "16:9": 1 } });
    expect(findModel("runway/gen4-aleph")?.workflows).toEqual(["video-to-video"]);
    expect(findModel("google/veo-3")?.workflows).toEqual(["text-to-video", "video-with-audio"]);
    expect(findModel("darkroom/lumen-video")?.workflows).toEqual([
      "text-to-video",
      "image-to-video",
      "first-last-frame",
      "video-with-audio",
    ]);
  });
});
