import "server-only";
import { listModels } from "../../../catalog/index";
import { disabledCatalog } from "../../../catalog/disabled-catalog";
import { configuredProviders } from "../../../providers/configured-providers";
import type { LibraryModelsQuery } from "../../contract/catalog";
import { shapeLibraryModel, type LibraryModelEntry } from "./library-shapes";

// GET /v1/library/models: the catalog is immutable data and what configures or turns off a
// provider is the process's env, so every entry is shaped once per process and a filtered read
// only picks from that list (bench: the library row).

type Indexed = { entry: LibraryModelEntry; providers: ReadonlySet<string>; workflows: ReadonlySet<string> };

let shaped: Indexed[] | null = null;

function indexed(): Indexed[] {
  if (!shaped) {
    const availability = { configured: configuredProviders(), disabled: disabledCatalog() };
    shaped = listModels().map((model) => ({
      entry: shapeLibraryModel(model, availability),
      providers: new Set(model.providers),
      workflows: new Set(model.workflows),
    }));
  }
  return shaped;
}

/** The library entries every given filter holds for, in catalog order. */
export function libraryModels(query: LibraryModelsQuery): LibraryModelEntry[] {
  const all = indexed();
  if (query.type === undefined && query.provider === undefined && query.workflow === undefined) return all.map((item) => item.entry);
  return all
    .filter((item) => query.type === undefined || item.entry.model_type === query.type)
    .filter((item) => query.provider === undefined || item.providers.has(query.provider))
    .filter((item) => query.workflow === undefined || item.workflows.has(query.workflow))
    .map((item) => item.entry);
}
