import { afterEach, describe, expect, it } from "vitest";
import { disabledCatalog, NOTHING_DISABLED, parseDisabledCatalog, type DisabledCatalog } from "@/server/catalog/disabled-catalog";
import { enabledProviders, findServedModel, modelStatus } from "@/server/catalog/model-status";
import type { ProviderId } from "@/server/catalog/providers";
import { env, resetEnvCache } from "@/server/base/env";
import { errorOf } from "@/tests/support/api-error";

// CATALOG_DISABLED_MODELS / CATALOG_DISABLED_PROVIDERS: parsing and checking against the catalog,
// and the model_status rules (server/catalog/model-status.ts).

afterEach(() => {
  delete process.env.CATALOG_DISABLED_MODELS;
  delete process.env.CATALOG_DISABLED_PROVIDERS;
  resetEnvCache();
});

function withEnv(models: string | undefined, providers: string | undefined) {
  if (models === undefined) delete process.env.CATALOG_DISABLED_MODELS;
  else process.env.CATALOG_DISABLED_MODELS = models;
  if (providers === undefined) delete process.env.CATALOG_DISABLED_PROVIDERS;
  else process.env.CATALOG_DISABLED_PROVIDERS = providers;
  resetEnvCache();
}

const turnedOff = (models: string[], providers: ProviderId[]): DisabledCatalog => ({
  models: new Set(models),
  providers: new Set(providers),
});

describe("the env lists", () => {
  it("are empty when unset or empty", () => {
    withEnv(undefined, "");
    expect(env()).toMatchObject({ CATALOG_DISABLED_MODELS: [], CATALOG_DISABLED_PROVIDERS: [] });
    expect(disabledCatalog()).toEqual(NOTHING_DISABLED);
  });

  it("split on commas, trimmed, empty entries dropped", () => {
    withEnv(" darkroom/lumen-video ,, darkroom/lumen-image", "local-backup, ");
    expect(env()).toMatchObject({
      CATALOG_DISABLED_MODELS: ["darkroom/lumen-video", "darkroom/lumen-image"],
      CATALOG_DISABLED_PROVIDERS: ["local-backup"],
    });
    expect(disabledCatalog()).toEqual(turnedOff(["darkroom/lumen-video", "darkroom/lumen-image"], ["local-backup"]));
  });

  it("are read again after the configuration is", () => {
    withEnv("darkroom/lumen-video", undefined);
    expect([...disabledCatalog().models]).toEqual(["darkroom/lumen-video"]);
    withEnv(undefined, "local");
    expect(disabledCatalog()).toEqual(turnedOff([], ["local"]));
  });

  it("refuse a model identifier the catalog does not hold, naming it", () => {
    withEnv("darkroom/lumen-image,nobody/nothing,openai/sora-9", undefined);
    expect(() => disabledCatalog()).toThrow(
      "Invalid configuration: CATALOG_DISABLED_MODELS: no model nobody/nothing, openai/sora-9 in the catalog",
    );
  });

  it("refuse a provider id the catalog does not hold, naming it and the known ones", () => {
    expect(() => parseDisabledCatalog({ models: [], providers: ["local", "Replicate"] })).toThrow(
      /^Invalid configuration: CATALOG_DISABLED_PROVIDERS: no provider Replicate in the catalog \(one of: local, local-backup, /,
    );
  });
});

describe("model_status", () => {
  const model = { identifier: "vendor/model", providers: ["replicate", "fal", "bfl"] as [ProviderId, ...ProviderId[]] };

  it("is active while a configured provider is not turned off", () => {
    expect(modelStatus(model, new Set(["fal"]), NOTHING_DISABLED)).toBe("active");
    expect(modelStatus(model, new Set(["replicate", "fal"]), turnedOff([], ["replicate"]))).toBe("active");
  });

  it("is not_configured when no provider of it is configured", () => {
    expect(modelStatus(model, new Set(["openai"]), NOTHING_DISABLED)).toBe("not_configured");
    expect(modelStatus(model, new Set(), turnedOff([], ["replicate"]))).toBe("not_configured");
  });

  it("is disabled when the model is turned off, whatever its providers", () => {
    expect(modelStatus(model, new Set(["replicate", "fal", "bfl"]), turnedOff(["vendor/model"], []))).toBe("disabled");
    expect(modelStatus(model, new Set(), turnedOff(["vendor/model"], []))).toBe("disabled");
  });

  it("is disabled when every configured provider of it is turned off, or every listed one", () => {
    expect(modelStatus(model, new Set(["replicate", "fal"]), turnedOff([], ["replicate", "fal"]))).toBe("disabled");
    expect(modelStatus(model, new Set(), turnedOff([], ["replicate", "fal", "bfl"]))).toBe("disabled");
  });

  it("keeps the order of the providers left on", () => {
    expect(enabledProviders(model.providers, turnedOff([], ["fal"]))).toEqual(["replicate", "bfl"]);
    expect(enabledProviders(model.providers, NOTHING_DISABLED)).toEqual(["replicate", "fal", "bfl"]);
  });
});

describe("findServedModel", () => {
  const local = new Set(["local", "local-backup"]);

  const refusal = (run: () => unknown) => {
    const error = errorOf(run);
    return { code: error.code, message: error.message, details: error.details };
  };

  it("finds a model that is served", () => {
    expect(findServedModel("darkroom/lumen-image", local, turnedOff([], ["local"])).identifier).toBe("darkroom/lumen-image");
  });

  it("refuses an unknown model with ERR1012", () => {
    expect(refusal(() => findServedModel("nobody/nothing", local, NOTHING_DISABLED))).toEqual({
      code: "ERR1012",
      message: "No model nobody/nothing. See GET /v1/library/models.",
      details: { model_identifier: "nobody/nothing" },
    });
  });

  it("refuses a model turned off with ERR1012, saying so", () => {
    expect(refusal(() => findServedModel("darkroom/lumen-image", local, turnedOff(["darkroom/lumen-image"], [])))).toEqual({
      code: "ERR1012",
      message: 'darkroom/lumen-image is turned off on this deployment by its operator (model_status "disabled" in GET /v1/library/models).',
      details: { model_identifier: "darkroom/lumen-image", model_status: "disabled" },
    });
  });

  it("refuses a model whose every provider is turned off with ERR1012, naming them", () => {
    expect(refusal(() => findServedModel("darkroom/lumen-video", local, turnedOff([], ["local", "local-backup"])))).toMatchObject({
      code: "ERR1012",
      message: expect.stringContaining(
        "darkroom/lumen-video is turned off on this deployment: its providers local, local-backup are disabled",
      ),
      details: { model_identifier: "darkroom/lumen-video", model_status: "disabled", disabled_providers: ["local", "local-backup"] },
    });
  });
});
