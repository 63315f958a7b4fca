import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browseModels } from "@/server/edge/api/models/browse-models";
import { describeModel } from "@/server/edge/api/models/describe-model";
import { findModel, listModels } from "@/server/catalog/index";
import { PROMPT_MAX_LENGTH } from "@/server/catalog/request-schema";
import { db, disconnectDb } from "@/server/base/db";
import { catalog } from "@/server/edge/http/operations";
import { createCaller } from "@/tests/support/dashboard-caller";
import { apiErrorOf } from "@/tests/support/trpc-api-error";
import { accountWithKey, addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { callOperation, expectSuccess } from "@/tests/support/http";

// The dashboard's models router through createCaller: the /v1/library/models entries (the same
// function, field for field), narrowed by type, workflow, provider, price and name, each with its
// providers' health, p50 latency and typical run time; every create field of one model.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).models;

const identifiers = (catalogue: { models: Array<{ entry: { model_identifier: string } }> }) =>
  catalogue.models.map((model) => model.entry.model_identifier);

describe("models router: the catalog and its filters", () => {
  let accountId: string;
  let member: string;
  let key: string;

  beforeAll(async () => {
    const owner = await accountWithKey();
    accountId = owner.accountId;
    key = owner.key;
    member = await addTeamMember(accountId, "member");
  });

  it("lists every library entry of GET /v1/library/models, in its order, for a member", async () => {
    const catalogue = await as(member).list({ accountId });
    const route = expectSuccess(await callOperation(catalog.listModels, { key })) as { models: Array<{ model_identifier: string }> };
    expect(catalogue.catalog_total).toBe(listModels().length);
    expect(catalogue.models.map((model) => model.entry)).toEqual(route.models);
    for (const model of catalogue.models) {
      expect(model.providers.map((provider) => provider.provider)).toEqual(model.entry.model_supported_provider);
    }
    // The facets are what the catalog has, each once.
    expect(new Set(catalogue.facets.workflows)).toEqual(new Set(listModels().flatMap((model) => model.workflows)));
    expect(new Set(catalogue.facets.providers.map((provider) => provider.id))).toEqual(
      new Set(listModels().flatMap((model) => model.providers)),
    );
  });

  it("filters by type, workflow and provider as the library route does, and by price and name on top", async () => {
    const videos = await as(member).list({ accountId, type: "video" });
    expect(identifiers(videos)).toEqual(
      listModels()
        .filter((model) => model.type === "video")
        .map((model) => model.identifier),
    );
    expect(videos.models.length).toBeGreaterThan(0);

    const sample = listModels().find((model) => model.type === "video" && model.providers.length > 1) ?? listModels()[0]!;
    const [workflow] = sample.workflows;
    const provider = sample.providers[sample.providers.length - 1]!;
    const narrowed = await as(member).list({ accountId, workflow, provider });
    const route = expectSuccess(await callOperation(catalog.listModels, { key, query: { workflow, provider } })) as {
      models: Array<{ model_identifier: string }>;
    };
    expect(identifiers(narrowed)).toEqual(route.models.map((model) => model.model_identifier));
    expect(identifiers(narrowed)).toContain(sample.identifier);

    const prices = (await as(member).list({ accountId })).models.map((model) => model.entry.model_pricing).sort((a, b) => a - b);
    const median = prices[Math.floor(prices.length / 2)]!;
    const cheap = await as(member).list({ accountId, maxPrice: median });
    expect(cheap.models.length).toBeGreaterThan(0);
    expect(cheap.models.every((model) => model.entry.model_pricing <= median)).toBe(true);
    expect(cheap.models.length).toBe(prices.filter((price) => price <= median).length);

    // A name in another case, with spaces around; an identifier's part.
    const byName = await as(member).list({ accountId, search: `  ${sample.name.toUpperCase()} ` });
    expect(identifiers(byName)).toContain(sample.identifier);
    expect(
      byName.models.every(
        (model) =>
          model.entry.model_name.toLowerCase().includes(sample.name.toLowerCase()) ||
          model.entry.model_identifier.includes(sample.name.toLowerCase()),
      ),
    ).toBe(true);
    const vendor = sample.identifier.split("/")[0]!;
    expect(identifiers(await as(member).list({ accountId, search: `${vendor}/` }))).toEqual(
      listModels()
        .filter((model) => model.identifier.startsWith(`${vendor}/`))
        .map((model) => model.identifier),
    );

    // All must hold; nothing matching is an empty list, not an error.
    const none = await as(member).list({ accountId, type: "image", search: sample.name, maxPrice: 0 });
    expect(none.models).toEqual([]);
    expect(none.catalog_total).toBe(listModels().length);
  });

  it("refuses bad filters with ERR1001, another account with ERR1006 and no session with ERR1002", async () => {
    const bad: Array<Record<string, unknown>> = [
      { type: "audio" },
      { workflow: "painting" },
      { provider: "nobody" },
      { maxPrice: -1 },
      { search: "x".repeat(101) },
    ];
    for (const filters of bad) {
      const error = await apiErrorOf(as(member).list({ accountId, ...filters } as never));
      expect(error.code).toBe("ERR1001");
    }
    const other = await createTestAccount();
    expect((await apiErrorOf(as(member).list({ accountId: other.accountId }))).code).toBe("ERR1006");
    expect((await apiErrorOf(as(member).get({ accountId: other.accountId, identifier: listModels()[0]!.identifier }))).code).toBe(
      "ERR1006",
    );
    expect((await apiErrorOf(as(null).list({ accountId }))).code).toBe("ERR1002");
  });

  it("describes one model: its library entry, every create field with allowed values and defaults, ERR1012 for an unknown one", async () => {
    const route = expectSuccess(await callOperation(catalog.listModels, { key })) as { models: Array<{ model_identifier: string }> };
    for (const model of listModels()) {
      const described = await as(member).get({ accountId, identifier: model.identifier });
      expect(described.entry).toEqual(route.models.find((entry) => entry.model_identifier === model.identifier));
      expect(described.create_path).toBe(`/v1/generate/${model.type}/${model.identifier}`);
      const fields = Object.fromEntries(described.fields.map((field) => [field.field, field]));
      expect(fields.generation_prompt).toMatchObject({
        required: model.promptRequired,
        accepts: expect.stringContaining(String(PROMPT_MAX_LENGTH)),
      });
      expect(fields.generation_ratio).toMatchObject({ required: false, allowed: [...model.ratios], default: model.ratios[0] });
      expect(fields.generation_output_format).toMatchObject({ allowed: [...model.formats], default: model.formats[0] });
      expect(fields.generation_output_number).toMatchObject({
        default: 1,
        accepts: model.maxOutputs === 1 ? expect.stringMatching(/^1: /) : `an integer, 1 to ${model.maxOutputs}`,
      });
      expect(fields.generation_provider_order).toMatchObject({ required: false });
      expect(fields.generation_input_file === undefined).toBe(model.inputFiles === null);
      if (model.inputFiles)
        expect(fields.generation_input_file).toMatchObject({
          required: model.inputFiles.required,
          accepts: expect.stringContaining(
            model.inputFiles.max === 1 ? "an array of 1 http(s) URL" : `1 to ${model.inputFiles.max} http(s) URLs`,
          ),
        });
      if (model.type === "video") {
        expect(fields.generation_duration).toMatchObject({ required: true, allowed: [...model.durations], default: null });
        expect(fields.generation_resolution).toMatchObject({
          allowed: model.resolutions.map((entry) => entry.id),
          default: model.defaultResolution,
        });
        expect(fields.generation_generate_audio === undefined).toBe(model.audioPerSecondMillis === null);
        expect(fields.generation_input_file_last_content === undefined).toBe(!model.lastFrame);
      } else {
        expect(
          Object.keys(fields).filter((name) =>
            ["generation_duration", "generation_resolution", "generation_generate_audio"].includes(name),
          ),
        ).toEqual([]);
      }
    }
    expect((await apiErrorOf(as(member).get({ accountId, identifier: "darkroom/no-such-model" }))).code).toBe("ERR1012");
  });
});

// Health and run times read every account's rows, so this scenario lives at its own moment in
// the 1970s and early 1980s, where no other suite writes (health.test.ts uses the 1990s).
describe("models router: health, p50 latency and typical run time", () => {
  const now = new Date(Date.UTC(1975, 0, 1) + Math.floor(Math.random() * 3_000) * 86_400_000);
  const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  const context = { region: "us" as const, now, database: db };
  const model =
    listModels().find((item) => item.providers.length > 1 && item.providers.includes("local")) ?? findModel("darkroom/lumen-image")!;
  const [first, second] = model.providers;
  let accountId: string;

  beforeAll(async () => {
    const account = await db.account.create({ data: { name: "Models test", email: `models-${randomUUID()}@example.test` } });
    accountId = account.id;
    // Four successful runs of 2, 4, 6 and 30 s (median 5 s), one failed run, one older than a day.
    const runs = [
      { seconds: 2, status: "succeeded" as const, at: minutesAgo(3) },
      { seconds: 4, status: "succeeded" as const, at: minutesAgo(4) },
      { seconds: 6, status: "succeeded" as const, at: minutesAgo(5) },
      { seconds: 30, status: "succeeded" as const, at: minutesAgo(6) },
      { seconds: 1, status: "failed" as const, at: minutesAgo(7) },
      { seconds: 900, status: "succeeded" as const, at: minutesAgo(25 * 60) },
    ];
    let attemptNumber = 0;
    for (const run of runs) {
      const generation = await db.generation.create({
        data: {
          accountId,
          region: "us",
          mediaKind: model.type,
          modelIdentifier: model.identifier,
          providerOrder: [...model.providers],
          estimatedCost: "0.01",
          status: run.status,
          metricsTotalTime: run.seconds,
          createdAt: run.at,
        },
      });
      if (run.at < minutesAgo(60)) continue;
      // The first provider served each run, in latencies 1, 2, 3, 4 s (and one failure).
      attemptNumber += 1;
      await db.providerAttempt.create({
        data: {
          generationId: generation.id,
          accountId,
          region: "us",
          modelIdentifier: model.identifier,
          provider: first,
          attemptNumber,
          outcome: run.status,
          latencyMs: run.status === "succeeded" ? attemptNumber * 1000 : null,
          errorCode: run.status === "failed" ? "ERR4002" : null,
          startedAt: new Date(run.at.getTime() - 5_000),
          finishedAt: run.at,
        },
      });
    }
  });

  afterAll(async () => {
    await db.account.deleteMany({ where: { id: accountId } });
  });

  it("gives each card the median of the recent successful runs and each provider its health and this model's figures", async () => {
    const catalogue = await browseModels({ search: model.identifier }, context);
    const card = catalogue.models.find((item) => item.entry.model_identifier === model.identifier)!;
    expect(card.typical_run_seconds).toBe(5);
    const served = card.providers.find((provider) => provider.provider === first)!;
    expect(served).toMatchObject({ attempts: 5, success_rate: 0.8, p50_latency_ms: 2500 });
    expect(["healthy", "recovering", "degraded"]).toContain(served.status);
    expect(served.status_reason).toMatch(/\S/);
    if (second)
      expect(card.providers.find((provider) => provider.provider === second)).toMatchObject({
        attempts: 0,
        success_rate: null,
        p50_latency_ms: null,
      });

    // Another model, never run at that moment: no typical time, no figures.
    const other = listModels().find((item) => item.identifier !== model.identifier)!;
    const quiet = (await browseModels({ search: other.identifier }, context)).models.find(
      (item) => item.entry.model_identifier === other.identifier,
    )!;
    expect(quiet.typical_run_seconds).toBeNull();
    expect(quiet.providers.every((provider) => provider.attempts === 0 && provider.p50_latency_ms === null)).toBe(true);
  });

  it("gives the model page the same evidence", async () => {
    const described = await describeModel(model.identifier, context);
    expect(described.typical_run_seconds).toBe(5);
    expect(described.providers.find((provider) => provider.provider === first)).toMatchObject({ attempts: 5, p50_latency_ms: 2500 });
  });
});
