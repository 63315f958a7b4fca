import { ApiError } from "../base/error-table";
import { disabledCatalog, type DisabledCatalog } from "./disabled-catalog";
import { findModel } from "./index";
import type { ModelDefinition } from "./models";
import type { ProviderId } from "./providers";

// Whether this deployment serves a model, from which of its providers are configured and what
// the operator turned off (disabled-catalog.ts). The library shows it as `model_status`; a
// create or estimate of a disabled model is refused.

export type ModelStatus = "active" | "not_configured" | "disabled";

type CatalogModel = Pick<ModelDefinition, "identifier" | "providers">;

/** The providers of a list the operator did not turn off, in the list's order. */
export function enabledProviders<P extends ProviderId>(providers: readonly P[], disabled: DisabledCatalog): P[] {
  return providers.filter((provider) => !disabled.providers.has(provider));
}

/**
 * active: a provider of it is configured and not disabled. disabled: the model is turned off, or
 * every provider of it that is configured is (or, with none configured, every one listed is:
 * a credential would not bring it back). not_configured: otherwise, no provider of it is configured.
 */
export function modelStatus(model: CatalogModel, configured: ReadonlySet<string>, disabled: DisabledCatalog): ModelStatus {
  if (disabled.models.has(model.identifier)) return "disabled";
  const enabled = enabledProviders(model.providers, disabled);
  if (enabled.some((provider) => configured.has(provider))) return "active";
  if (enabled.length === 0 || model.providers.some((provider) => configured.has(provider))) return "disabled";
  return "not_configured";
}

/** The model a request names, when this deployment serves it: unknown or disabled is ERR1012. */
export function findServedModel(
  identifier: string,
  configured: ReadonlySet<string>,
  disabled: DisabledCatalog = disabledCatalog(),
): ModelDefinition {
  const model = findModel(identifier);
  if (!model) throw new ApiError("ERR1012", `No model ${identifier}. See GET /v1/library/models.`, { model_identifier: identifier });
  if (modelStatus(model, configured, disabled) === "disabled") throw modelTurnedOff(model, disabled);
  return model;
}

function modelTurnedOff(model: CatalogModel, disabled: DisabledCatalog): ApiError {
  const details = { model_identifier: model.identifier, model_status: "disabled" };
  if (disabled.models.has(model.identifier)) {
    return new ApiError(
      "ERR1012",
      `${model.identifier} is turned off on this deployment by its operator (model_status "disabled" in GET /v1/library/models).`,
      details,
    );
  }
  const off = model.providers.filter((provider) => disabled.providers.has(provider));
  return new ApiError(
    "ERR1012",
    `${model.identifier} is turned off on this deployment: its providers ${off.join(", ")} are disabled and no other of its providers is configured (model_status "disabled" in GET /v1/library/models).`,
    {
      ...details,
      disabled_providers: off,
    },
  );
}
