import { env, type Env } from "../base/env";
import { findModel } from "./index";
import { providerIds, type ProviderId } from "./providers";

// What the operator turned off on this deployment (CATALOG_DISABLED_MODELS,
// CATALOG_DISABLED_PROVIDERS). A name the catalog does not hold fails the start: a typo must not
// leave a model on that the operator meant to turn off.

export type DisabledCatalog = { models: ReadonlySet<string>; providers: ReadonlySet<ProviderId> };

export const NOTHING_DISABLED: DisabledCatalog = { models: new Set(), providers: new Set() };

export function parseDisabledCatalog(lists: { models: readonly string[]; providers: readonly string[] }): DisabledCatalog {
  const unknownModels = lists.models.filter((identifier) => !findModel(identifier));
  if (unknownModels.length > 0) {
    throw new Error(
      `Invalid configuration: CATALOG_DISABLED_MODELS: no model ${unknownModels.join(", ")} in the catalog (model identifiers as GET /v1/library/models lists them)`,
    );
  }
  const known: readonly string[] = providerIds;
  const unknownProviders = lists.providers.filter((id) => !known.includes(id));
  if (unknownProviders.length > 0) {
    throw new Error(
      `Invalid configuration: CATALOG_DISABLED_PROVIDERS: no provider ${unknownProviders.join(", ")} in the catalog (one of: ${providerIds.join(", ")})`,
    );
  }
  return { models: new Set(lists.models), providers: new Set(lists.providers as ProviderId[]) };
}

let parsed: { from: Env; disabled: DisabledCatalog } | undefined;

/** This deployment's switches, parsed once per configuration read; throws on an unknown name. */
export function disabledCatalog(): DisabledCatalog {
  const config = env();
  if (parsed?.from !== config)
    parsed = {
      from: config,
      disabled: parseDisabledCatalog({ models: config.CATALOG_DISABLED_MODELS, providers: config.CATALOG_DISABLED_PROVIDERS }),
    };
  return parsed.disabled;
}
