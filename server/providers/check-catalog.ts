import "server-only";
import { listProviders, modelsForProvider, type ProviderId } from "../catalog";
import { catalogProblems } from "../catalog/catalog-problems";
import { configuredProviders } from "./configured-providers";
import { adapterFor } from "./registry";
import type { ProviderCheck } from "./types";

// `npm run cli -- catalog:check`: the catalog data's problems, then every remote provider asked,
// through its adapter's read-only check(), whether it takes our credential and knows each model id
// the catalog lists for it. An unconfigured provider is listed, not asked, and is not a problem.

type ModelRow = { model: string; provider_model_id: string; found: boolean | null };
export type ProviderCheckRow = {
  provider: ProviderId;
  configured: boolean;
  credential: ProviderCheck["credential"] | "not_configured";
  models: ModelRow[] | "not_checkable";
  detail?: string;
};

export async function checkCatalog(
  filter: { provider?: ProviderId } = {},
): Promise<{ ok: boolean; problems: string[]; providers: ProviderCheckRow[] }> {
  const configured = configuredProviders();
  const remote = listProviders().filter(
    (provider) => provider.credentialEnv !== null && (!filter.provider || provider.id === filter.provider),
  );
  const providers = await Promise.all(remote.map((provider) => checkOne(provider.id, configured.has(provider.id))));
  const problems = [...catalogProblems(), ...providers.flatMap(rowProblems)];
  return { ok: problems.length === 0, problems, providers };
}

async function checkOne(provider: ProviderId, configured: boolean): Promise<ProviderCheckRow> {
  const listed = modelsForProvider(provider).map((model) => ({
    model: model.identifier,
    provider_model_id: model.providerModelIds[provider] ?? "",
    found: null,
  }));
  if (!configured) return { provider, configured, credential: "not_configured", models: listed };
  const result = await askProvider(provider, [...new Set(listed.map((row) => row.provider_model_id))]);
  const answers = result.models;
  const models =
    answers === "not_checkable"
      ? "not_checkable"
      : listed.map((row) => ({ ...row, found: answers.find((answer) => answer.providerModelId === row.provider_model_id)?.found ?? null }));
  return { provider, configured, credential: result.credential, models, ...(result.detail ? { detail: result.detail } : {}) };
}

async function askProvider(provider: ProviderId, providerModelIds: string[]): Promise<ProviderCheck> {
  const adapter = adapterFor(provider);
  if (!adapter.check) return { credential: "unreachable", models: "not_checkable", detail: `${provider}: its adapter has no check` };
  try {
    return await adapter.check(providerModelIds);
  } catch (error) {
    return {
      credential: "unreachable",
      models: "not_checkable",
      detail: `${provider}: the check failed (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

function rowProblems(row: ProviderCheckRow): string[] {
  if (row.credential === "not_configured") return [];
  if (row.credential !== "ok") return [row.detail ?? `${row.provider}: credential ${row.credential}`];
  if (row.models === "not_checkable") return [];
  const missing = row.models
    .filter((model) => model.found === false)
    .map((model) => `${row.provider}: ${model.model} (${model.provider_model_id}) is not found`);
  const unknown = row.models.some((model) => model.found === null)
    ? [row.detail ?? `${row.provider}: some models could not be checked`]
    : [];
  return [...missing, ...unknown];
}
