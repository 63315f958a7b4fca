import "server-only";
import { listModels, listProviders, type ModelType, type ProviderId } from "../../../catalog/index";
import { workflows as allWorkflows, type Workflow } from "../../../catalog/model-data";
import { libraryModels } from "../../http/handlers/library-models";
import type { LibraryModelEntry } from "../../http/handlers/library-shapes";
import { loadModelEvidence, overviewOf, type ModelOverview, type ModelReadContext } from "./model-overview";

// The Models page: the library's entries (the same filtered read as GET /v1/library/models),
// narrowed further by price and by name, each with its providers' health and typical run time.

export type ModelFilters = {
  type?: ModelType;
  workflow?: Workflow;
  provider?: ProviderId;
  /** At most this `model_pricing`, in credits (per image, or per second for videos). */
  maxPrice?: number;
  /** Part of the name or identifier, any case. */
  search?: string;
};

export type ModelFacets = { workflows: Workflow[]; providers: Array<{ id: ProviderId; name: string }> };

export type ModelCatalog = { catalog_total: number; facets: ModelFacets; models: ModelOverview[] };

export function filterLibraryModels(filters: ModelFilters): LibraryModelEntry[] {
  const search = filters.search?.trim().toLowerCase() ?? "";
  return libraryModels({ type: filters.type, provider: filters.provider, workflow: filters.workflow })
    .filter((entry) => filters.maxPrice === undefined || entry.model_pricing <= filters.maxPrice)
    .filter(
      (entry) => search === "" || entry.model_name.toLowerCase().includes(search) || entry.model_identifier.toLowerCase().includes(search),
    );
}

/** What the filters can choose from: the workflows and providers some model of the catalog has, in their canonical order. */
export function modelFacets(): ModelFacets {
  const models = listModels();
  return {
    workflows: allWorkflows.filter((workflow) => models.some((model) => model.workflows.includes(workflow))),
    providers: listProviders()
      .filter((provider) => models.some((model) => model.providers.includes(provider.id)))
      .map((provider) => ({ id: provider.id, name: provider.name })),
  };
}

export async function browseModels(filters: ModelFilters, context: ModelReadContext): Promise<ModelCatalog> {
  const entries = filterLibraryModels(filters);
  const evidence = await loadModelEvidence(
    entries.map((entry) => entry.model_identifier),
    context,
  );
  return { catalog_total: listModels().length, facets: modelFacets(), models: entries.map((entry) => overviewOf(entry, evidence)) };
}
