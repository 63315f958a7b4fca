import { describe, expect, it } from "vitest";
import { modelsForProvider } from "@/server/catalog";
import { listProviders } from "@/server/edge/http/operations/catalog";
import { IMPLEMENTATION_KEYS, IMPLEMENTATION_TEXT_FIELDS } from "@/tests/support/client-shapes";
import { accountWithKey } from "@/tests/support/fixtures";
import { api, callOperation, expectSuccess } from "@/tests/support/http";
import { startSecondInstance } from "@/tests/support/second-instance";

// GET /v1/library/providers (listProviders): the providers and how each is integrated.

describe("200", () => {
  it("lists providers with their implementation block", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await callOperation(listProviders, { key }));
    expect(data.providers_total).toBe(data.providers.length);
    const local = data.providers.find((provider) => provider.provider_id === "local");
    expect(local).toMatchObject({ provider_status: "active" });
    // The documented integration and arrays, plus the flat fields clients read.
    expect(Object.keys(local?.darkroom_implementation ?? {}).sort()).toEqual(IMPLEMENTATION_KEYS);
    expect(Object.keys(local?.darkroom_implementation.integration ?? {}).sort()).toEqual([
      "delivery_method",
      "supports_cancel",
      "timeout_seconds",
      "webhook_signature",
    ]);
    expect(local?.darkroom_implementation.supported_models).toContain("darkroom/lumen-image");
    // The test server configures Replicate (against a local fake) and not fal.
    expect(data.providers.find((provider) => provider.provider_id === "replicate")?.provider_status).toBe("active");
    expect(data.providers.find((provider) => provider.provider_id === "fal")?.provider_status).toBe("not_configured");
    expect(data.providers.find((provider) => provider.provider_id === "runway")?.provider_status).toBe("active");
  });

  it("carries the flat implementation fields beside integration, true to each adapter", async () => {
    const { key } = await accountWithKey();
    const { providers } = expectSuccess(await callOperation(listProviders, { key }));
    const byId = Object.fromEntries(providers.map((provider) => [provider.provider_id, provider.darkroom_implementation]));
    for (const implementation of Object.values(byId)) {
      for (const field of IMPLEMENTATION_TEXT_FIELDS) expect(typeof implementation[field], field).toBe("string");
      expect(implementation.integration).toEqual(expect.objectContaining({ delivery_method: implementation.delivery_method }));
      expect(implementation.supported_models_total).toBe(implementation.supported_models.length);
      expect(implementation.supported_media_types.length).toBeGreaterThan(0);
      expect(Array.isArray(implementation.capabilities)).toBe(true);
    }
    expect(byId.local).toMatchObject({
      delivery_method: "synchronous",
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("local").length,
    });
    // The built-in renderers serve the built-in models only: no remote model fails over to a placeholder.
    expect(byId.local?.supported_models).toEqual(["darkroom/lumen-image", "darkroom/lumen-video"]);
    expect(byId["local-backup"]?.supported_models).toEqual(["darkroom/lumen-image", "darkroom/lumen-video"]);
    expect(byId.replicate?.supported_models).toEqual(
      expect.arrayContaining(["runway/gen4-image", "runway/gen4-turbo", "cloudflare/flux-1-schnell"]),
    );
    expect(byId.replicate?.supported_models).not.toContain("leonardo/lucid-origin");
    // The test app sets REPLICATE_WEBHOOK_SECRET, so Replicate is asked for webhooks.
    expect(byId.replicate).toMatchObject({ delivery_method: "webhook", supported_media_types: ["image", "video"] });
    expect(byId.replicate?.webhook_verification).toContain("HMAC-SHA256");
    expect(byId.fal).toMatchObject({ delivery_method: "webhook" });
    expect(byId.openai).toMatchObject({
      delivery_method: "synchronous",
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("openai").length,
    });
    expect(byId.openai?.supported_models).toEqual(expect.arrayContaining(["openai/gpt-image-1", "openai/sora-2", "openai/sora-2-pro"]));
    expect(byId.openai?.cancel_method).toMatch(/^DELETE \/v1\/videos\/\{id\}/);
    expect(byId.runway).toMatchObject({
      delivery_method: "polling",
      cancel_method: "DELETE /v1/tasks/{id}",
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("runway").length,
    });
    expect(byId.runway?.supported_models).toEqual(expect.arrayContaining(["runway/gen4-image", "runway/gen4-turbo", "runway/gen4-aleph"]));
    expect(byId.runway?.webhook_verification).toMatch(/^none/);
    // The test app points Cloudflare Workers AI at its fake (token and account id both set).
    expect(byId.cloudflare).toMatchObject({
      delivery_method: "synchronous",
      supported_media_types: ["image"],
      webhook_verification: expect.stringMatching(/^none/),
    });
    expect(providers.find((provider) => provider.provider_id === "cloudflare")?.provider_status).toBe("active");
    expect(byId.alibaba).toMatchObject({
      delivery_method: "polling",
      cancel_method: expect.stringMatching(/^POST \/api\/v1\/tasks/),
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("alibaba").length,
    });
    expect(providers.find((provider) => provider.provider_id === "alibaba")?.provider_status).toBe("active");
    // BytePlus ModelArk: images answer in the call, Seedance tasks are polled and canceled by DELETE.
    expect(byId.byteplus).toMatchObject({
      delivery_method: "polling",
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("byteplus").length,
      webhook_verification: expect.stringMatching(/^none/),
    });
    expect(byId.byteplus?.cancel_method).toContain("DELETE /api/v3/contents/generations/tasks/{id}");
    expect(providers.find((provider) => provider.provider_id === "byteplus")?.provider_status).toBe("active");
    // The test app points the Gemini API at its fake: Veo operations polled, images in the call.
    expect(byId.google).toMatchObject({
      delivery_method: "polling",
      supported_media_types: ["image", "video"],
      supported_models_total: modelsForProvider("google").length,
      webhook_verification: expect.stringMatching(/^none/),
    });
    expect(providers.find((provider) => provider.provider_id === "google")?.provider_status).toBe("active");
  });
});

describe("provider_status disabled", () => {
  it("marks the providers CATALOG_DISABLED_PROVIDERS names, configured or not, and leaves the rest as they were", async () => {
    const { key } = await accountWithKey();
    const shared = expectSuccess(await callOperation(listProviders, { key })).providers;
    const instance = await startSecondInstance({ CATALOG_DISABLED_PROVIDERS: "replicate,fal,local" });
    try {
      const { providers } = expectSuccess(
        await api<{ providers: typeof shared }>("/v1/library/providers", { key, base: instance.baseUrl }),
      );
      const status = Object.fromEntries(providers.map((provider) => [provider.provider_id, provider.provider_status]));
      expect(status).toMatchObject({ replicate: "disabled", fal: "disabled", local: "disabled", "local-backup": "active" });
      for (const provider of shared.filter((entry) => !["replicate", "fal", "local"].includes(entry.provider_id)))
        expect(status[provider.provider_id], provider.provider_id).toBe(provider.provider_status);
      // Everything else about them is unchanged.
      expect(providers.find((provider) => provider.provider_id === "replicate")?.darkroom_implementation).toEqual(
        shared.find((provider) => provider.provider_id === "replicate")?.darkroom_implementation,
      );
    } finally {
      await instance.stop();
    }
  });
});
