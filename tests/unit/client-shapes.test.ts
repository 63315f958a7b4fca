import path from "node:path";
import { describe, expect, it } from "vitest";
import { NOTHING_DISABLED } from "@/server/catalog/disabled-catalog";
import { listModels, listProviders, modelsForProvider } from "@/server/catalog/index";
import { shapeLibraryModel, shapeLibraryProvider } from "@/server/edge/http/handlers/library-shapes";
import { estimateRetryAfterSeconds } from "@/server/generations/concurrency-retry-after";
import { judgeProvider, NO_ATTEMPTS } from "@/server/health/provider-health";
import { libraryModelSchema, libraryProviderSchema } from "@/server/edge/contract/index";
import type { ProviderStats } from "@/server/routing/rank-providers";
import { localBucketLabel } from "@/server/storage/local-disk";
import { IMPLEMENTATION_KEYS, IMPLEMENTATION_TEXT_FIELDS } from "@/tests/support/client-shapes";

// The shapes a typed client of this API shape reads beyond the documented shapes,
// pinned at the functions that build them; the route files in tests/http/routes pin the wire.

const everywhere = { configured: new Set<string>(listProviders().map((entry) => entry.id)), disabled: NOTHING_DISABLED };

function provider(id: string) {
  const found = listProviders().find((entry) => entry.id === id);
  if (!found) throw new Error(`missing ${id}`);
  return found;
}

describe("library models: a video model's values inside schema", () => {
  it("lists durations, resolutions and whether audio is offered for each video model, nothing for images", () => {
    for (const model of listModels()) {
      const shaped = shapeLibraryModel(model, everywhere);
      expect(libraryModelSchema.parse(shaped)).toEqual(shaped);
      if (model.type === "image") {
        expect(shaped.schema).not.toHaveProperty("generation_duration");
        expect(shaped.schema).not.toHaveProperty("generation_resolution");
        expect(shaped.schema).not.toHaveProperty("generation_generate_audio");
        continue;
      }
      expect(shaped.schema.generation_duration).toEqual([...model.durations]);
      expect(shaped.schema.generation_resolution).toEqual(model.resolutions.map((entry) => entry.id));
      expect(shaped.schema.generation_generate_audio).toBe(model.audioPerSecondMillis !== null);
      // specific_schema_options stays as it was.
      expect(shaped.specific_schema_options.generation_duration).toEqual([...model.durations]);
    }
  });

  it("says a model without audio pricing cannot generate audio", () => {
    const kling = listModels().find((model) => model.identifier === "kwaivgi/kling-v2.1");
    const lumen = listModels().find((model) => model.identifier === "darkroom/lumen-video");
    if (!kling || !lumen) throw new Error("catalog incomplete");
    expect(shapeLibraryModel(kling, everywhere).schema).toMatchObject({
      generation_duration: [5, 10],
      generation_resolution: ["720p", "1080p"],
      generation_generate_audio: false,
    });
    expect(shapeLibraryModel(lumen, everywhere).schema).toMatchObject({
      generation_duration: [2, 4, 6],
      generation_resolution: ["480p", "720p"],
      generation_generate_audio: true,
    });
  });
});

describe("library providers: the flat implementation fields", () => {
  it("carries every flat field beside the documented integration and arrays, for every provider", () => {
    for (const entry of listProviders()) {
      const shaped = shapeLibraryProvider(entry, new Set());
      expect(libraryProviderSchema.parse(shaped)).toEqual(shaped);
      const implementation = shaped.darkroom_implementation;
      expect(Object.keys(implementation).sort()).toEqual(IMPLEMENTATION_KEYS);
      for (const field of IMPLEMENTATION_TEXT_FIELDS) expect(implementation[field], `${entry.id}.${field}`).toEqual(expect.any(String));
      expect(implementation.integration.delivery_method).toBe(implementation.delivery_method);
      expect(implementation.supported_models_total).toBe(implementation.supported_models.length);
      expect(implementation.supported_models).toEqual(modelsForProvider(entry.id).map((model) => model.identifier));
    }
  });

  it("lists the media types of the models each provider serves", () => {
    const types = (id: string) => shapeLibraryProvider(provider(id), new Set()).darkroom_implementation.supported_media_types;
    expect(types("local")).toEqual(["image", "video"]);
    expect(types("replicate")).toEqual(["image", "video"]);
    expect(types("fal")).toEqual(["image", "video"]);
    expect(types("openai")).toEqual(["image", "video"]);
  });

  it("follows what each adapter really does", () => {
    const implementation = (id: string, replicateWebhooks = false) =>
      shapeLibraryProvider(provider(id), new Set([id]), { replicateWebhooks }).darkroom_implementation;
    // Replicate is asked for a webhook only when REPLICATE_WEBHOOK_SECRET is set; else polled.
    expect(implementation("replicate").delivery_method).toBe("polling");
    expect(implementation("replicate").webhook_verification).toMatch(/^none/);
    expect(implementation("replicate", true).delivery_method).toBe("webhook");
    expect(implementation("replicate", true).webhook_verification).toContain("HMAC-SHA256");
    expect(implementation("replicate").cancel_method).toContain("/v1/predictions/{id}/cancel");
    expect(implementation("fal").delivery_method).toBe("webhook");
    expect(implementation("fal").webhook_verification).toContain("ED25519");
    expect(implementation("fal").cancel_method).toContain("PUT");
    // OpenAI Images is one synchronous call; Sora jobs are polled and canceled by DELETE; no callbacks.
    expect(implementation("openai")).toMatchObject({ delivery_method: "synchronous" });
    expect(implementation("openai").cancel_method).toMatch(/^DELETE \/v1\/videos\/\{id\}/);
    expect(implementation("openai").webhook_verification).toMatch(/^none/);
    expect(implementation("local")).toMatchObject({ delivery_method: "synchronous" });
    expect(implementation("local").cancel_method).toContain("Abort");
    // ERR4005 never fails over, for every provider.
    for (const entry of listProviders()) expect(implementation(entry.id).failover_strategy).toContain("ERR4005");
  });
});

describe("provider health status", () => {
  const now = new Date("2026-03-01T12:00:00.000Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const stats = (overrides: Partial<ProviderStats>): ProviderStats => ({ ...NO_ATTEMPTS, ...overrides });

  it("is unknown, with the reason, when not configured", () => {
    expect(judgeProvider(stats({ attempts: 10, successes: 10, lastSuccessAt: ago(5) }), "FAL_KEY", now)).toEqual({
      status: "unknown",
      status_reason: "not configured: FAL_KEY is not set",
      available: false,
    });
  });

  it("is healthy without evidence, and with a low failure rate", () => {
    expect(judgeProvider(stats({}), null, now)).toMatchObject({ status: "healthy", available: true });
    expect(
      judgeProvider(stats({ attempts: 10, successes: 9, failures: 1, lastFailureAt: ago(100), lastSuccessAt: ago(10) }), null, now),
    ).toMatchObject({ status: "healthy", available: true });
  });

  it("is degraded while the circuit is open", () => {
    const open = judgeProvider(stats({ attempts: 3, failures: 3, consecutiveFailures: 3, lastFailureAt: ago(5) }), null, now);
    expect(open).toMatchObject({ status: "degraded", status_reason: "circuit open: 3 consecutive failures", available: true });
  });

  it("is recovering once the circuit is half-open, or after a success that follows the failures", () => {
    const halfOpen = judgeProvider(stats({ attempts: 3, failures: 3, consecutiveFailures: 3, lastFailureAt: ago(60) }), null, now);
    expect(halfOpen).toMatchObject({ status: "recovering", available: true });
    expect(halfOpen.status_reason).toContain("half-open");
    const succeededSince = judgeProvider(
      stats({ attempts: 10, failures: 8, successes: 2, consecutiveFailures: 0, lastFailureAt: ago(120), lastSuccessAt: ago(60) }),
      null,
      now,
    );
    expect(succeededSince).toMatchObject({ status: "recovering", available: true });
    expect(succeededSince.status_reason).toContain("latest attempt succeeded");
  });

  it("is degraded when half the window failed and the latest attempt failed; unavailable at 90%", () => {
    const half = judgeProvider(
      stats({ attempts: 4, failures: 2, successes: 2, consecutiveFailures: 1, lastFailureAt: ago(120), lastSuccessAt: ago(200) }),
      null,
      now,
    );
    expect(half).toMatchObject({ status: "degraded", status_reason: "failure rate 0.50 over 4 attempts", available: true });
    const down = judgeProvider(
      stats({ attempts: 10, failures: 9, successes: 1, consecutiveFailures: 9, lastFailureAt: ago(120), lastSuccessAt: ago(600) }),
      null,
      now,
    );
    expect(down).toMatchObject({ status: "degraded", available: false });
  });
});

describe("Retry-After of a concurrency refusal", () => {
  const now = new Date("2026-03-01T12:00:00.000Z");
  const started = (secondsAgo: number, modelIdentifier = "darkroom/lumen-video") => ({
    modelIdentifier,
    createdAt: new Date(now.getTime() - secondsAgo * 1000),
  });

  it("waits for the in-flight generation expected to finish first, from its model's typical run time", () => {
    const typical = new Map([["darkroom/lumen-video", 30]]);
    expect(estimateRetryAfterSeconds([started(10)], typical, now)).toBe(20);
    expect(estimateRetryAfterSeconds([started(10), started(25.5)], typical, now)).toBe(5);
    expect(estimateRetryAfterSeconds([started(10), started(25.5)], new Map([["darkroom/lumen-video", 45]]), now)).toBe(20);
  });

  it("expects an overdue run to need up to one more typical run, never past its timeout", () => {
    expect(estimateRetryAfterSeconds([started(40)], new Map([["darkroom/lumen-video", 30]]), now)).toBe(30);
    // lumen-video times out at 180 s: 175 s in, at most 5 s remain.
    expect(estimateRetryAfterSeconds([started(175)], new Map([["darkroom/lumen-video", 30]]), now)).toBe(5);
  });

  it("falls back to the model's timeout without history, and is at least 1 s", () => {
    expect(estimateRetryAfterSeconds([started(30, "google/veo-3")], new Map(), now)).toBe(870);
    expect(estimateRetryAfterSeconds([started(0.2, "darkroom/lumen-image")], new Map([["darkroom/lumen-image", 0.4]]), now)).toBe(1);
    expect(estimateRetryAfterSeconds([], new Map(), now)).toBe(1);
  });
});

describe("storage bucket label", () => {
  it("names a local directory relative to the working directory, never by its absolute path", () => {
    expect(localBucketLabel(path.join(process.cwd(), ".data", "files"))).toBe("local:.data/files");
    expect(localBucketLabel("/var/lib/darkroom/files")).toBe("local:files");
  });
});
