import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listProviders, modelsForProvider } from "@/server/catalog";
import { startAlibabaFake, type AlibabaFake } from "@/tests/fakes/alibaba-fake";
import { startBflFake, type BflFake } from "@/tests/fakes/bfl-fake";
import { startByteplusFake, type ByteplusFake } from "@/tests/fakes/byteplus-fake";
import { startCloudflareFake, type CloudflareFake } from "@/tests/fakes/cloudflare-fake";
import { startFalFake, type FalFake } from "@/tests/fakes/fal-fake";
import { startGoogleFake, type GoogleFake } from "@/tests/fakes/google-fake";
import { startMiniMaxFake, type MiniMaxFake } from "@/tests/fakes/minimax-fake";
import { startOpenAIFake, type OpenAIFake } from "@/tests/fakes/openai-fake";
import { startReplicateFake, type ReplicateFake } from "@/tests/fakes/replicate-fake";
import { startRunwayFake, type RunwayFake } from "@/tests/fakes/runway-fake";
import { cli } from "@/tests/support/cli";

// `catalog:check` as operators run it, a separate process, against fakes of all ten providers
// that answer the read-only endpoints as each provider documents them: a good credential, a
// refused one, a model id the provider does not know, a provider left unconfigured.

type Fakes = {
  replicate: ReplicateFake;
  fal: FalFake;
  openai: OpenAIFake;
  bfl: BflFake;
  runway: RunwayFake;
  cloudflare: CloudflareFake;
  minimax: MiniMaxFake;
  alibaba: AlibabaFake;
  byteplus: ByteplusFake;
  google: GoogleFake;
};
let fakes: Fakes;

type ProviderRow = {
  provider: string;
  configured: boolean;
  credential: string;
  models: Array<{ model: string; provider_model_id: string; found: boolean | null }> | "not_checkable";
  detail?: string;
};
const rowOf = (body: Record<string, any>, provider: string): ProviderRow =>
  (body.providers as ProviderRow[]).find((row) => row.provider === provider)!;

/** Every provider's credential and base URL pointed at this suite's fakes (the shared ones npm test starts are left alone). */
function providerEnv(credentials: Partial<Record<keyof Fakes, string>> = {}): Record<string, string> {
  const key = (provider: keyof Fakes, good: string) => credentials[provider] ?? good;
  return {
    REPLICATE_API_TOKEN: key("replicate", fakes.replicate.token),
    REPLICATE_API_BASE_URL: fakes.replicate.baseUrl,
    FAL_KEY: key("fal", fakes.fal.key),
    FAL_QUEUE_BASE_URL: fakes.fal.baseUrl,
    FAL_API_BASE_URL: fakes.fal.baseUrl,
    OPENAI_API_KEY: key("openai", fakes.openai.token),
    OPENAI_BASE_URL: fakes.openai.baseUrl,
    BFL_API_KEY: key("bfl", fakes.bfl.apiKey),
    BFL_BASE_URL: fakes.bfl.baseUrl,
    RUNWAYML_API_SECRET: key("runway", fakes.runway.apiSecret),
    RUNWAY_BASE_URL: fakes.runway.baseUrl,
    CLOUDFLARE_API_TOKEN: key("cloudflare", fakes.cloudflare.token),
    CLOUDFLARE_ACCOUNT_ID: fakes.cloudflare.accountId,
    CLOUDFLARE_BASE_URL: fakes.cloudflare.apiBaseUrl,
    MINIMAX_API_KEY: key("minimax", fakes.minimax.token),
    MINIMAX_BASE_URL: fakes.minimax.baseUrl,
    DASHSCOPE_API_KEY: key("alibaba", fakes.alibaba.apiKey),
    DASHSCOPE_BASE_URL: fakes.alibaba.baseUrl,
    ARK_API_KEY: key("byteplus", fakes.byteplus.apiKey),
    ARK_BASE_URL: fakes.byteplus.apiBaseUrl,
    GEMINI_API_KEY: key("google", fakes.google.apiKey),
    GEMINI_BASE_URL: fakes.google.baseUrl,
  };
}

const allProviders = Object.keys({
  replicate: 0,
  fal: 0,
  openai: 0,
  bfl: 0,
  runway: 0,
  cloudflare: 0,
  minimax: 0,
  alibaba: 0,
  byteplus: 0,
  google: 0,
} satisfies Record<keyof Fakes, 0>) as Array<keyof Fakes>;
const withoutModelReads = new Set(["bfl", "minimax", "byteplus"]);

beforeAll(async () => {
  const [replicate, fal, openai, bfl, runway, cloudflare, minimax, alibaba, byteplus, google] = await Promise.all([
    startReplicateFake(),
    startFalFake(),
    startOpenAIFake(),
    startBflFake(),
    startRunwayFake(),
    startCloudflareFake(),
    startMiniMaxFake(),
    startAlibabaFake(),
    startByteplusFake(),
    startGoogleFake(),
  ]);
  fakes = { replicate, fal, openai, bfl, runway, cloudflare, minimax, alibaba, byteplus, google };
});

afterAll(async () => {
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

describe("cli: catalog:check", () => {
  it("with good credentials every provider takes its key and knows every model id: ok, exit 0", async () => {
    const run = await cli(["catalog:check"], providerEnv());
    expect(run.code).toBe(0);
    expect(run.body).toMatchObject({ ok: true, problems: [] });
    expect((run.body.providers as ProviderRow[]).map((row) => row.provider).sort()).toEqual(
      listProviders()
        .flatMap((p) => (p.credentialEnv ? [p.id] : []))
        .sort(),
    );
    for (const provider of allProviders) {
      const row = rowOf(run.body, provider);
      expect(row, provider).toMatchObject({ configured: true, credential: "ok" });
      if (withoutModelReads.has(provider)) {
        expect(row.models, provider).toBe("not_checkable");
        expect(row.detail).toBe(`${provider} has no model read endpoint: only the credential was checked`);
      } else {
        expect(row.models, provider).toEqual(
          modelsForProvider(provider).map((model) => ({
            model: model.identifier,
            provider_model_id: model.providerModelIds[provider],
            found: true,
          })),
        );
      }
    }
    // Only reads were sent, each to the endpoint the provider publishes for it.
    expect(fakes.openai.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/models",
      ...modelsForProvider("openai").map((m) => `GET /v1/models/${m.providerModelIds.openai}`),
    ]);
    expect(fakes.bfl.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/credits"]);
    expect(fakes.runway.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/organization"]);
    expect(fakes.minimax.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/files/list"]);
    expect(fakes.byteplus.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v3/contents/generations/tasks"]);
    for (const fake of Object.values(fakes)) expect(fake.requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("a refused credential is reported per provider, naming it; exit 1", async () => {
    const wrong = Object.fromEntries(allProviders.map((provider) => [provider, `wrong-${provider}-key`]));
    const run = await cli(["catalog:check"], providerEnv(wrong));
    expect(run.code).toBe(1);
    expect(run.body.ok).toBe(false);
    for (const provider of allProviders) {
      const row = rowOf(run.body, provider);
      expect(row, provider).toMatchObject({ configured: true, credential: "refused" });
      expect(row.detail, provider).toMatch(new RegExp(`^${provider}: GET \\S+ refused the credential \\(HTTP \\d{3}`));
      expect(row.detail, provider).not.toContain("wrong-");
      if (row.models !== "not_checkable")
        expect(
          row.models.every((model) => model.found === null),
          provider,
        ).toBe(true);
      expect(run.body.problems).toContain(row.detail);
    }
    // Gemini refuses a key with 400 API_KEY_INVALID, MiniMax with base_resp 1004 in an HTTP 200.
    expect(rowOf(run.body, "google").detail).toContain("HTTP 400 API_KEY_INVALID");
    expect(rowOf(run.body, "minimax").detail).toContain("HTTP 200 base_resp 1004");
  });

  it("a model id the provider does not know is reported missing; the others are still found", async () => {
    const gone = {
      replicate: "black-forest-labs/flux-schnell",
      fal: "fal-ai/veo3",
      openai: "sora-2-pro",
      runway: "gen4_aleph",
      cloudflare: "@cf/leonardo/lucid-origin",
      alibaba: "qwen-image",
      google: "imagen-4.0-generate-001",
    };
    for (const [provider, id] of Object.entries(gone)) fakes[provider as keyof typeof gone].models.delete(id);
    try {
      const run = await cli(["catalog:check"], providerEnv());
      expect(run.code).toBe(1);
      expect(run.body.ok).toBe(false);
      for (const [provider, id] of Object.entries(gone)) {
        const row = rowOf(run.body, provider);
        expect(row.credential).toBe("ok");
        if (row.models === "not_checkable") throw new Error(`${provider} should check its models`);
        for (const model of row.models) expect(model.found, `${provider} ${model.provider_model_id}`).toBe(model.provider_model_id !== id);
        for (const model of row.models.filter((m) => !m.found))
          expect(run.body.problems).toContain(`${provider}: ${model.model} (${id}) is not found`);
      }
    } finally {
      for (const [provider, id] of Object.entries(gone)) fakes[provider as keyof typeof gone].models.add(id);
    }
  });

  it("an unconfigured provider is listed as not_configured, not asked, and is not a problem", async () => {
    const before = fakes.minimax.requests.length;
    const run = await cli(["catalog:check"], { ...providerEnv(), MINIMAX_API_KEY: "", CLOUDFLARE_ACCOUNT_ID: "" });
    expect(run.code).toBe(0);
    expect(run.body.ok).toBe(true);
    for (const provider of ["minimax", "cloudflare"]) {
      expect(rowOf(run.body, provider)).toEqual({
        provider,
        configured: false,
        credential: "not_configured",
        models: modelsForProvider(provider).map((model) => ({
          model: model.identifier,
          provider_model_id: model.providerModelIds[provider as "minimax"],
          found: null,
        })),
      });
    }
    expect(fakes.minimax.requests.length).toBe(before);
  });

  it("--provider checks that provider alone; a provider that is not a remote one is exit 2 ERR1001", async () => {
    const only = await cli(["catalog:check", "--provider", "runway"], providerEnv({ openai: "wrong" }));
    expect(only.code).toBe(0);
    expect(only.body.providers.map((row: ProviderRow) => row.provider)).toEqual(["runway"]);

    const [local, unknown] = await Promise.all([cli(["catalog:check", "--provider", "local"]), cli(["catalog:check", "--provider=nope"])]);
    for (const run of [local, unknown]) {
      expect(run.code).toBe(2);
      expect(run.body.error).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "provider" }] } });
    }
  });

  it("an unreachable provider is reported as such, naming it", async () => {
    const run = await cli(["catalog:check", "--provider", "bfl"], { ...providerEnv(), BFL_BASE_URL: "http://127.0.0.1:9" });
    expect(run.code).toBe(1);
    expect(rowOf(run.body, "bfl")).toMatchObject({
      credential: "unreachable",
      models: "not_checkable",
      detail: expect.stringMatching(/^bfl: GET \/v1\/credits: bfl could not be reached/),
    });
  });

  it("an answer not in the provider's documented shape is reported as not understood, naming the provider", async () => {
    // A BFL whose /v1/credits answers 200 with a body that is no CreditsResponse.
    fakes.replicate.putFile("v1/credits", Buffer.from(JSON.stringify({ balance: 3 })), "application/json");
    const run = await cli(["catalog:check", "--provider", "bfl"], { ...providerEnv(), BFL_BASE_URL: `${fakes.replicate.baseUrl}/files` });
    expect(run.code).toBe(1);
    expect(rowOf(run.body, "bfl")).toMatchObject({
      credential: "unreachable",
      detail: "bfl: GET /v1/credits: the answer (HTTP 200) is not understood",
    });
    expect(run.body.problems).toEqual(["bfl: GET /v1/credits: the answer (HTTP 200) is not understood"]);
  });
});

describe("cli: catalog:list", () => {
  it("prints the catalog without a database and refuses bad flags with exit 2", async () => {
    const run = await cli(["catalog:list", "--provider", "openai"], {
      ...providerEnv(),
      DATABASE_URL: "postgres://nobody@127.0.0.1:9/none",
    });
    expect(run.code).toBe(0);
    expect(run.body.providers).toEqual([{ id: "openai", name: "OpenAI", configured: true, env: ["OPENAI_API_KEY"] }]);
    expect(run.body.models.map((model: { identifier: string }) => model.identifier)).toEqual(
      modelsForProvider("openai").map((model) => model.identifier),
    );

    const bad = await cli(["catalog:list", "--type", "audio"]);
    expect(bad.code).toBe(2);
    expect(bad.body.error).toMatchObject({ code: "ERR1001", message: "--type must be one of image, video." });
  });
});
