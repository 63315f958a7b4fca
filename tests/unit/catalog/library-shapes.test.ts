import { describe, expect, it } from "vitest";
import { NOTHING_DISABLED } from "@/server/catalog/disabled-catalog";
import { findModel, listModels, listProviders, modelsForProvider, type ModelDefinition } from "@/server/catalog/index";
import { shapeLibraryModel, shapeLibraryProvider } from "@/server/edge/http/handlers/library-shapes";
import { libraryModelSchema } from "@/server/edge/contract/catalog";
import { IMPLEMENTATION_KEYS } from "@/tests/support/client-shapes";

function model(identifier: string): ModelDefinition {
  const found = findModel(identifier);
  if (!found) throw new Error(`missing ${identifier}`);
  return found;
}

/** A deployment with every provider configured and nothing turned off. */
const everywhere = { configured: new Set<string>(listProviders().map((provider) => provider.id)), disabled: NOTHING_DISABLED };

const sortedKeys = (value: object) => Object.keys(value).sort();
const isStringArray = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");

describe("shapeLibraryModel", () => {
  it.each(listModels().map((entry) => [entry.identifier, entry] as [string, ModelDefinition]))(
    "%s has exactly the documented fields and types",
    (_id, entry) => {
      const shaped = shapeLibraryModel(entry, everywhere);
      expect(sortedKeys(shaped)).toEqual(
        [
          "model_identifier",
          "model_name",
          "model_pricing",
          "model_pricing_breakdown",
          "model_status",
          "model_supported_provider",
          "model_type",
          "model_workflows",
          "schema",
          "specific_schema",
          "specific_schema_options",
        ].sort(),
      );
      expect(libraryModelSchema.parse(shaped)).toEqual(shaped);
      // The headline number is the breakdown's default entry.
      const breakdown = shaped.model_pricing_breakdown;
      if (entry.type === "video")
        expect(breakdown.unit === "second" && breakdown.price_per_second_by_resolution[entry.defaultResolution]).toBe(shaped.model_pricing);
      else if (breakdown.unit !== "second")
        expect(breakdown.price_per_image_by_ratio[shaped.schema.generation_ratio[0]!]).toBe(shaped.model_pricing);
      expect(["image", "video"]).toContain(shaped.model_type);
      expect(typeof shaped.model_identifier).toBe("string");
      expect(typeof shaped.model_pricing).toBe("number");
      expect(shaped.model_pricing).toBeGreaterThan(0);
      expect(Math.round(shaped.model_pricing * 1000) / 1000).toBe(shaped.model_pricing);
      expect(isStringArray(shaped.model_supported_provider)).toBe(true);
      const videoKeys = entry.type === "video" ? ["generation_duration", "generation_generate_audio", "generation_resolution"] : [];
      expect(sortedKeys(shaped.schema)).toEqual(
        [
          "generation_input_file",
          "generation_output_format",
          "generation_output_number",
          "generation_prompt",
          "generation_ratio",
          ...videoKeys,
        ].sort(),
      );
      expect(typeof shaped.schema.generation_prompt).toBe("boolean");
      expect(isStringArray(shaped.schema.generation_ratio)).toBe(true);
      expect(isStringArray(shaped.schema.generation_output_format)).toBe(true);
      expect(Number.isInteger(shaped.schema.generation_output_number)).toBe(true);
      expect(typeof shaped.schema.generation_input_file).toBe("boolean");
      expect(isStringArray(shaped.specific_schema)).toBe(true);
      // Every option listed belongs to a field named in specific_schema.
      for (const key of Object.keys(shaped.specific_schema_options)) expect(shaped.specific_schema).toContain(key);
      // JSON round trip keeps it identical: no undefined, no class instances.
      expect(JSON.parse(JSON.stringify(shaped))).toEqual(shaped);
    },
  );

  it("shapes an image model", () => {
    expect(shapeLibraryModel(model("darkroom/lumen-image"), everywhere)).toEqual({
      model_type: "image",
      model_identifier: "darkroom/lumen-image",
      model_name: "Lumen Image (built-in)",
      model_pricing: 0.002,
      model_pricing_breakdown: {
        unit: "image",
        price_per_image: 0.002,
        price_per_image_by_ratio: { "1:1": 0.002, "16:9": 0.002, "9:16": 0.002, "4:3": 0.002, "3:4": 0.002, "3:2": 0.002, "2:3": 0.002 },
      },
      model_workflows: ["text-to-image", "image-edit"],
      model_supported_provider: ["local", "local-backup"],
      schema: {
        generation_prompt: true,
        generation_ratio: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"],
        generation_output_format: ["png", "jpg", "webp"],
        generation_output_number: 4,
        generation_input_file: true,
      },
      specific_schema: [],
      specific_schema_options: {},
      model_status: "active",
    });
    expect(shapeLibraryModel(model("black-forest-labs/flux-schnell"), everywhere).schema.generation_input_file).toBe(false);
  });

  it("shapes a video model with its specific fields and their allowed values", () => {
    expect(shapeLibraryModel(model("darkroom/lumen-video"), everywhere)).toMatchObject({
      model_type: "video",
      model_pricing: 0.01,
      model_pricing_breakdown: {
        unit: "second",
        price_per_second_by_resolution: { "480p": 0.01, "720p": 0.02 },
        audio_price_per_second: 0.005,
      },
      model_workflows: ["text-to-video", "image-to-video", "first-last-frame", "video-with-audio"],
      specific_schema: ["generation_duration", "generation_resolution", "generation_generate_audio", "generation_input_file_last_content"],
      specific_schema_options: {
        generation_duration: [2, 4, 6],
        generation_resolution: ["480p", "720p"],
        generation_generate_audio: [false, true],
      },
    });
    const kling = shapeLibraryModel(model("kwaivgi/kling-v2.1"), everywhere);
    expect(kling.specific_schema).toEqual(["generation_duration", "generation_resolution"]);
    expect(kling.specific_schema_options).toEqual({ generation_duration: [5, 10], generation_resolution: ["720p", "1080p"] });
  });
});

it("shapes model_status from the configured providers and the switches", () => {
  const lumen = model("darkroom/lumen-image");
  expect(shapeLibraryModel(lumen, { configured: new Set(["local"]), disabled: NOTHING_DISABLED }).model_status).toBe("active");
  expect(
    shapeLibraryModel(lumen, {
      configured: new Set(["local"]),
      disabled: { models: new Set(["darkroom/lumen-image"]), providers: new Set() },
    }).model_status,
  ).toBe("disabled");
  const schnell = model("black-forest-labs/flux-schnell");
  expect(shapeLibraryModel(schnell, { configured: new Set(["local"]), disabled: NOTHING_DISABLED }).model_status).toBe("not_configured");
  expect(
    shapeLibraryModel(schnell, { configured: new Set(["replicate"]), disabled: { models: new Set(), providers: new Set(["replicate"]) } })
      .model_status,
  ).toBe("disabled");
});

describe("shapeLibraryProvider", () => {
  it.each(listProviders().map((provider) => [provider.id, provider] as const))(
    "%s has exactly the documented fields and types",
    (_id, provider) => {
      const shaped = shapeLibraryProvider(provider, new Set());
      expect(sortedKeys(shaped)).toEqual(
        [
          "darkroom_implementation",
          "provider_description",
          "provider_docs",
          "provider_id",
          "provider_name",
          "provider_status",
          "provider_website",
        ].sort(),
      );
      for (const key of [
        "provider_id",
        "provider_name",
        "provider_description",
        "provider_website",
        "provider_docs",
        "provider_status",
      ] as const) {
        expect(typeof shaped[key]).toBe("string");
      }
      const implementation = shaped.darkroom_implementation;
      expect(sortedKeys(implementation)).toEqual(IMPLEMENTATION_KEYS);
      expect(sortedKeys(implementation.integration)).toEqual([
        "delivery_method",
        "supports_cancel",
        "timeout_seconds",
        "webhook_signature",
      ]);
      expect(typeof implementation.integration.delivery_method).toBe("string");
      expect(typeof implementation.integration.webhook_signature).toBe("string");
      expect(typeof implementation.integration.supports_cancel).toBe("boolean");
      expect(Number.isInteger(implementation.integration.timeout_seconds)).toBe(true);
      expect(isStringArray(implementation.capabilities)).toBe(true);
      expect(isStringArray(implementation.supported_models)).toBe(true);
      expect(JSON.parse(JSON.stringify(shaped))).toEqual(shaped);
    },
  );

  it("reports status from the configured set, built-ins always active", () => {
    const replicate = listProviders().find((entry) => entry.id === "replicate");
    const local = listProviders().find((entry) => entry.id === "local-backup");
    if (!replicate || !local) throw new Error("catalog incomplete");
    expect(shapeLibraryProvider(replicate, new Set()).provider_status).toBe("not_configured");
    expect(shapeLibraryProvider(replicate, new Set(["replicate"])).provider_status).toBe("active");
    // Turned off by the operator: disabled, configured or not, built-ins too.
    expect(shapeLibraryProvider(replicate, new Set(["replicate"]), undefined, new Set(["replicate"])).provider_status).toBe("disabled");
    expect(shapeLibraryProvider(replicate, new Set(), undefined, new Set(["replicate"])).provider_status).toBe("disabled");
    expect(shapeLibraryProvider(local, new Set(), undefined, new Set(["local-backup"])).provider_status).toBe("disabled");
    expect(shapeLibraryProvider(local, new Set()).provider_status).toBe("active");
  });

  it("lists the provider's models and integration", () => {
    const fal = listProviders().find((entry) => entry.id === "fal");
    if (!fal) throw new Error("catalog incomplete");
    const shaped = shapeLibraryProvider(fal, new Set(["fal"])).darkroom_implementation;
    expect(shaped).toMatchObject({
      integration: {
        delivery_method: "webhook",
        webhook_signature: "ed25519 (x-fal-webhook-signature)",
        supports_cancel: true,
        timeout_seconds: 900,
      },
      capabilities: ["text-to-image", "image-to-image", "text-to-video", "image-to-video", "audio"],
    });
    // Every model fal serves, in library order (the catalog grows, so the list is read, not pinned).
    expect(shaped.supported_models).toEqual(modelsForProvider("fal").map((model) => model.identifier));
    expect(shaped.supported_models).toEqual(
      expect.arrayContaining(["black-forest-labs/flux-schnell", "black-forest-labs/flux-1.1-pro", "google/veo-3", "kwaivgi/kling-v2.1"]),
    );
  });
});
