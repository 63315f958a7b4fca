import { describe, expect, it } from "vitest";
import { listModels, listProviders } from "@/server/catalog";
import { catalogProblems } from "@/server/catalog/catalog-problems";
import { formatCredits, listPriceMillis } from "@/server/catalog/pricing";
import { catalogCommands } from "@/server/start/cli/commands/catalog";
import { ApiError } from "@/server/base/error-table";
import { configuredProviders } from "@/server/providers/configured-providers";

// catalog:list's output and its flag errors, and the catalog data as catalog:check judges it.

const command = catalogCommands["catalog:list"]!;

async function list(flags: Record<string, string> = {}) {
  if (command.database !== false) throw new Error("catalog:list must not need the database");
  return (await command.prepare(flags)()) as { models: Array<Record<string, any>>; providers: Array<Record<string, any>> };
}

function refusal(flags: Record<string, string>): ApiError {
  if (command.database !== false) throw new Error("catalog:list must not need the database");
  try {
    command.prepare(flags);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`no refusal for ${JSON.stringify(flags)}`);
}

describe("catalog:list", () => {
  it("lists every model with its providers, provider model ids, configured state and list price in credits", async () => {
    const configured = configuredProviders();
    const { models } = await list();
    expect(models).toHaveLength(listModels().length);
    for (const [index, model] of listModels().entries()) {
      expect(models[index]).toEqual({
        identifier: model.identifier,
        name: model.name,
        type: model.type,
        list_price: formatCredits(listPriceMillis(model)),
        list_price_unit: model.type === "image" ? "output" : "second",
        providers: model.providers.map((provider) => ({
          provider,
          provider_model_id: model.providerModelIds[provider],
          configured: configured.has(provider),
        })),
      });
    }
    expect(models.find((model) => model.identifier === "darkroom/lumen-image")).toMatchObject({
      list_price: 0.002,
      list_price_unit: "output",
    });
  });

  it("lists every provider with the env vars that configure it; built-ins need none and are always configured", async () => {
    const { providers } = await list();
    expect(providers.map((provider) => provider.id)).toEqual(listProviders().map((provider) => provider.id));
    expect(providers.find((provider) => provider.id === "local")).toEqual({
      id: "local",
      name: "Darkroom Local",
      configured: true,
      env: [],
    });
    expect(providers.find((provider) => provider.id === "cloudflare")?.env).toEqual(["CLOUDFLARE_API_TOKEN", "CLOUDFLARE_ACCOUNT_ID"]);
  });

  it("filters by --type and --provider", async () => {
    const videos = await list({ type: "video" });
    expect(videos.models.length).toBeGreaterThan(0);
    expect(videos.models.every((model) => model.type === "video")).toBe(true);
    expect(videos.providers).toHaveLength(listProviders().length);

    const bfl = await list({ provider: "bfl", type: "image" });
    expect(bfl.models.map((model) => model.identifier)).toEqual(
      listModels()
        .filter((m) => m.type === "image" && m.providers.includes("bfl"))
        .map((m) => m.identifier),
    );
    expect(bfl.providers).toEqual([{ id: "bfl", name: "Black Forest Labs", configured: expect.any(Boolean), env: ["BFL_API_KEY"] }]);
  });

  it("refuses a bad --type or --provider with ERR1001 naming the flag and the allowed values", () => {
    const type = refusal({ type: "audio" });
    expect(type.code).toBe("ERR1001");
    expect(type.message).toBe("--type must be one of image, video.");
    const provider = refusal({ provider: "midjourney" });
    expect(provider.code).toBe("ERR1001");
    expect(provider.message).toMatch(/^--provider must be one of local, local-backup, replicate, fal, /);
  });
});

describe("catalogProblems", () => {
  it("finds none in the catalog as shipped", () => {
    expect(catalogProblems()).toEqual([]);
  });
});
